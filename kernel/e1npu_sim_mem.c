// SPDX-License-Identifier: GPL-2.0-only
/*
 * e1npu_sim: device memory the direct map does not cover.
 *
 * fake_iommu=1: a toy IOMMU for the simulated device, so the driver's DMA
 * API use is exercised as behind a real one (x86_64: needs
 * CONFIG_ARCH_HAS_DMA_OPS). Coherent memory is order-0 pages scattered in
 * RAM, vmap()ed for the CPU and given a contiguous I/O virtual address far
 * above RAM, which the model reaches through the vmap. mmap() does what
 * iommu-dma's does: it maps the pages of the allocation containing
 * cpu_addr from the allocation's start plus vm_pgoff, so a driver passing
 * the CPU address of a sub-range maps the allocation's first pages.
 *
 * of_node=PATH: the DT node the device gets; its memory-region, if any, is
 * mapped here for the model (a no-map region is outside the direct map).
 */
#include <linux/bits.h>
#include <linux/dma-map-ops.h>
#include <linux/io.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/of.h>
#include <linux/of_reserved_mem.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>

#include "e1npu_sim_mem.h"

#define E1SIM_IOVA_BASE	BIT_ULL(44)

struct e1sim_iommu_map {
	struct list_head node;
	u64 iova;
	size_t size;
	void *va;
	struct page **pages;
	unsigned int npages;
};

/* One simulated device: module-wide state. */
static bool e1sim_iommu_on;
/* Guards e1sim_iommu_maps and e1sim_iommu_next; taken under sim->lock. */
static DEFINE_SPINLOCK(e1sim_iommu_lock);
static LIST_HEAD(e1sim_iommu_maps);
static u64 e1sim_iommu_next;

static void *e1sim_region_va;
static phys_addr_t e1sim_region_pa;
static u64 e1sim_region_len;

static void e1sim_iommu_release(struct e1sim_iommu_map *m)
{
	unsigned int i;

	if (m->va)
		vunmap(m->va);
	for (i = 0; i < m->npages; i++)
		if (m->pages[i])
			__free_page(m->pages[i]);
	kvfree(m->pages);
	kfree(m);
}

#ifdef CONFIG_ARCH_HAS_DMA_OPS
static void *e1sim_iommu_alloc(struct device *dev, size_t size,
			       dma_addr_t *dma_handle, gfp_t gfp,
			       unsigned long attrs)
{
	struct e1sim_iommu_map *m;
	unsigned long flags;
	unsigned int i;

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return NULL;
	m->size = PAGE_ALIGN(size);
	m->npages = m->size >> PAGE_SHIFT;
	m->pages = kvcalloc(m->npages, sizeof(*m->pages), GFP_KERNEL);
	if (!m->pages)
		goto err;
	for (i = 0; i < m->npages; i++) {
		m->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!m->pages[i])
			goto err;
	}
	m->va = vmap(m->pages, m->npages, VM_MAP, PAGE_KERNEL);
	if (!m->va)
		goto err;
	spin_lock_irqsave(&e1sim_iommu_lock, flags);
	m->iova = E1SIM_IOVA_BASE + e1sim_iommu_next;
	e1sim_iommu_next += m->size + PAGE_SIZE;	/* a guard page between */
	list_add(&m->node, &e1sim_iommu_maps);
	spin_unlock_irqrestore(&e1sim_iommu_lock, flags);
	*dma_handle = m->iova;
	return m->va;
err:
	e1sim_iommu_release(m);
	return NULL;
}

static void e1sim_iommu_free(struct device *dev, size_t size, void *cpu_addr,
			     dma_addr_t dma_handle, unsigned long attrs)
{
	struct e1sim_iommu_map *m, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&e1sim_iommu_lock, flags);
	list_for_each_entry(m, &e1sim_iommu_maps, node) {
		if (m->va == cpu_addr && m->iova == dma_handle) {
			list_del(&m->node);
			found = m;
			break;
		}
	}
	spin_unlock_irqrestore(&e1sim_iommu_lock, flags);
	if (found)
		e1sim_iommu_release(found);
}

static int e1sim_iommu_mmap(struct device *dev, struct vm_area_struct *vma,
			    void *cpu_addr, dma_addr_t dma_addr, size_t size,
			    unsigned long attrs)
{
	unsigned long nr = PAGE_ALIGN(size) >> PAGE_SHIFT;
	struct e1sim_iommu_map *m, *found = NULL;
	unsigned long flags;

	if (vma->vm_pgoff >= nr || vma_pages(vma) > nr - vma->vm_pgoff)
		return -ENXIO;
	/* like find_vm_area(): the allocation containing cpu_addr */
	spin_lock_irqsave(&e1sim_iommu_lock, flags);
	list_for_each_entry(m, &e1sim_iommu_maps, node) {
		if (cpu_addr >= m->va && cpu_addr < m->va + m->size) {
			found = m;
			break;
		}
	}
	spin_unlock_irqrestore(&e1sim_iommu_lock, flags);
	if (!found || nr > found->npages)
		return -ENXIO;
	return vm_map_pages(vma, found->pages, nr);
}

static const struct dma_map_ops e1sim_iommu_ops = {
	.alloc = e1sim_iommu_alloc,
	.free = e1sim_iommu_free,
	.mmap = e1sim_iommu_mmap,
};
#endif

/* The node at @path and its memory-region, if any, mapped for the model. */
static int e1sim_mem_of_node(const char *path, struct device_node **np)
{
	struct reserved_mem *rmem;
	struct device_node *rnp;

	*np = of_find_node_by_path(path);
	if (!*np) {
		pr_err("e1npu_sim: of_node=%s: no such node\n", path);
		return -ENODEV;
	}
	rnp = of_parse_phandle(*np, "memory-region", 0);
	if (!rnp)
		return 0;
	rmem = of_reserved_mem_lookup(rnp);
	of_node_put(rnp);
	if (!rmem) {
		pr_err("e1npu_sim: of_node=%s: memory-region not reserved\n",
		       path);
		return -ENODEV;
	}
	e1sim_region_va = memremap(rmem->base, rmem->size, MEMREMAP_WC);
	if (!e1sim_region_va)
		return -ENOMEM;
	e1sim_region_pa = rmem->base;
	e1sim_region_len = rmem->size;
	return 0;
}

/**
 * e1sim_mem_init() - set up the memory the device will see
 * @of_path: DT node for the device, or NULL/empty
 * @fake_iommu: put the device behind the toy IOMMU
 * @np: out: the node (referenced) or NULL
 *
 * Return: 0 or a negative errno; e1sim_mem_fini() undoes a partial setup.
 */
int e1sim_mem_init(const char *of_path, bool fake_iommu,
		   struct device_node **np)
{
	*np = NULL;
	if (fake_iommu && !IS_ENABLED(CONFIG_ARCH_HAS_DMA_OPS)) {
		pr_err("e1npu_sim: fake_iommu needs CONFIG_ARCH_HAS_DMA_OPS\n");
		return -EINVAL;
	}
	e1sim_iommu_on = fake_iommu;
	return of_path && *of_path ? e1sim_mem_of_node(of_path, np) : 0;
}

/**
 * e1sim_mem_attach() - give the registered device its DMA ops
 * @dev: the simulated device, before the driver binds
 */
void e1sim_mem_attach(struct device *dev)
{
#ifdef CONFIG_ARCH_HAS_DMA_OPS
	if (e1sim_iommu_on)
		set_dma_ops(dev, &e1sim_iommu_ops);
#endif
}

/**
 * e1sim_mem_map() - CPU address of device range [@addr, @last]
 * @addr: first device address
 * @last: last device address
 * @handled: out: true when the range belongs to this file's address
 *	spaces (then NULL means a bus error), false for the direct map
 *
 * Return: the CPU address or NULL.
 */
void *e1sim_mem_map(u64 addr, u64 last, bool *handled)
{
	struct e1sim_iommu_map *m;
	void *va = NULL;

	*handled = true;
	if (e1sim_iommu_on) {
		spin_lock(&e1sim_iommu_lock);
		list_for_each_entry(m, &e1sim_iommu_maps, node) {
			if (addr >= m->iova && last < m->iova + m->size) {
				va = m->va + (addr - m->iova);
				break;
			}
		}
		spin_unlock(&e1sim_iommu_lock);
		return va;
	}
	if (e1sim_region_va && addr >= e1sim_region_pa &&
	    last < e1sim_region_pa + e1sim_region_len)
		return e1sim_region_va + (addr - e1sim_region_pa);
	*handled = false;
	return NULL;
}

/**
 * e1sim_mem_fini() - free what the driver left allocated and the region
 */
void e1sim_mem_fini(void)
{
	struct e1sim_iommu_map *m;

	while (!list_empty(&e1sim_iommu_maps)) {
		m = list_first_entry(&e1sim_iommu_maps, struct e1sim_iommu_map,
				     node);
		list_del(&m->node);
		e1sim_iommu_release(m);
	}
	e1sim_iommu_next = 0;
	e1sim_iommu_on = false;
	if (e1sim_region_va)
		memunmap(e1sim_region_va);
	e1sim_region_va = NULL;
}
