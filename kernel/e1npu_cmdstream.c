// SPDX-License-Identifier: GPL-2.0-only
/*
 * e1 NPU command streams: a job's commands are copied from userspace once,
 * decoded (only the canonical encoding of each command is accepted, see
 * e1npu_cmd_decode()), their relocations applied and bounds-checked, and
 * each command validated by the rules shared with libe1npu
 * (e1npu_opcheck.c) against the buffers of the submitting file. Only then
 * are device addresses written into the descriptors the ring will hold:
 * userspace never supplies or sees one.
 */
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>

#include "e1npu_device.h"
#include "e1npu_gem.h"
#include "e1npu_job.h"
#include "e1npu_job_helpers.h"

/*
 * The buffer of @handle, referenced once in the job: its index in job->bos.
 * A handle is resolved once per job, so the buffer whose size
 * e1npu_op_check() validated is the one the job uses even if the file
 * closes and reuses the handle meanwhile. Two handles of one object share
 * an entry (its reservation is locked once).
 */
/* Stack bytes for a small job's command stream: 4 wrapper descriptors. */
#define E1NPU_CMDS_SMALL	(4 * (E1_V0_DESC_WORDS * 4 + 4))

static int e1npu_job_bo_index(struct e1npu_job_ctx *jc, u32 handle)
{
	struct e1npu_job *job = jc->job;
	struct drm_gem_object *obj;
	int known;
	u32 i;

	known = e1npu_job_handle_find(jc->handles, jc->handle_count, handle);
	if (known >= 0)
		return known;
	obj = drm_gem_object_lookup(jc->file, handle);
	if (!obj)
		return -ENOENT;
	/* Host memory the NPU cannot address: only for status records. */
	if (to_e1npu_bo(obj)->host) {
		drm_dbg(obj->dev, "handle %u: a host buffer in a relocation\n",
			handle);
		drm_gem_object_put(obj);
		return -EINVAL;
	}
	i = e1npu_bo_find(job->bos, job->bo_count, obj);
	if (i < job->bo_count)
		drm_gem_object_put(obj);
	else
		job->bos[job->bo_count++] = obj;
	jc->handles[jc->handle_count].handle = handle;
	jc->handles[jc->handle_count].index = i;
	jc->handle_count++;
	return i;
}

static int e1npu_job_lookup(void *ctx, u32 handle, u64 *size)
{
	struct e1npu_job_ctx *jc = ctx;
	int b;

	b = e1npu_job_bo_index(jc, handle);
	if (b < 0)
		return b;
	*size = jc->job->bos[b]->size;
	return 0;
}

static int e1npu_job_prepare_ops(struct e1npu_job_ctx *jc)
{
	struct e1npu_job *job = jc->job;
	struct e1npu_device *edev = job->edev;
	u64 seq = atomic64_read(&edev->seqno);
	u32 i, t;
	int ret;

	for (i = 0; i < job->op_count; i++) {
		const struct e1npu_hw_op *op = &job->ops[i];
		struct e1npu_extent ext[E1NPU_T_COUNT];
		u64 addr[E1NPU_T_COUNT] = { 0 };
		struct e1npu_op_err err = { 0 };

		ret = e1npu_op_extents(op, ext, &err);
		if (ret)
			return ret;
		for (t = 0; t < E1NPU_T_COUNT; t++) {
			const struct e1npu_hw_tensor *tn =
				t == E1NPU_T_A ? &op->a :
				t == E1NPU_T_B ? &op->b : &op->c;
			struct e1npu_bo *bo;
			int b;

			if (!ext[t].used)
				continue;
			b = e1npu_job_bo_index(jc, tn->handle);
			if (b < 0)
				return b;
			job->bo_write[b] |= ext[t].write;
			bo = to_e1npu_bo(job->bos[b]);
			addr[t] = bo->dma + tn->offset;
			if (job->dp_ptr)
				job->dp_ptr[i][t] = bo->vaddr + tn->offset;
		}
		if (job->engine != DRM_E1NPU_ENGINE_WRAPPER)
			continue;
		ret = e1npu_op_encode(op, addr, (u32)(seq << 8) | (i & 0xff),
				      job->desc[i]);
		if (ret)
			return ret;
		if (i == job->op_count - 1)
			e1npu_desc_set_irq(job->desc[i]);
	}
	return 0;
}

/**
 * e1npu_cmdstream_copy() - copy, decode, relocate and validate a job's commands
 * @jc: the job being created and its handle cache
 * @args: the SUBMIT header (reloc_size)
 * @uj: the copied job
 * @index: the job's index in the SUBMIT (for the debug log)
 *
 * On success every command is validated and, for the wrapper, its
 * descriptor holds the device addresses of its buffers.
 *
 * Return: 0 or a negative errno (the UAPI DOC "e1npu submission errors").
 */
int e1npu_cmdstream_copy(struct e1npu_job_ctx *jc,
			 const struct drm_e1npu_submit *args,
			 const struct drm_e1npu_job *uj, u32 index)
{
	struct e1npu_job *job = jc->job;
	struct e1npu_device *edev = job->edev;
	struct drm_device *ddev = &edev->drm;
	u32 size = e1npu_cmd_size(uj->engine), i;
	struct e1npu_op_err err = { 0 };
	u32 *seen;
	u8 *cmds, small[E1NPU_CMDS_SMALL];
	size_t bytes;
	int ret = 0;

	/*
	 * The stream, then per command the relocated fields (BIT(field)).
	 * A job of a few commands (the decode loop's) needs no allocation.
	 */
	bytes = size_mul(uj->cmd_count, size + sizeof(*seen));
	if (bytes <= sizeof(small)) {
		cmds = small;
		memset(cmds, 0, bytes);
	} else {
		cmds = kvzalloc(bytes, GFP_KERNEL);
		if (!cmds)
			return -ENOMEM;
	}
	seen = (u32 *)(cmds + (size_t)uj->cmd_count * size);
	if (copy_from_user(cmds, u64_to_user_ptr(uj->cmds),
			   (size_t)uj->cmd_count * size)) {
		ret = -EFAULT;
		goto out;
	}
	for (i = 0; i < uj->cmd_count; i++) {
		ret = e1npu_cmd_decode(uj->engine, cmds + (size_t)i * size,
				       &job->ops[i], &err);
		if (ret) {
			drm_dbg(ddev, "job %u command %u: %s=0x%llx: %s (%d)\n",
				index, i, err.field, err.value, err.reason, ret);
			goto out;
		}
	}
	for (i = 0; i < uj->reloc_count; i++) {
		struct drm_e1npu_reloc r;

		ret = copy_struct_from_user(&r, sizeof(r),
					    u64_to_user_ptr(uj->relocs +
							    (u64)i * args->reloc_size),
					    args->reloc_size);
		if (ret) {
			ret = ret == -E2BIG ? -EINVAL : ret;
			goto out;
		}
		ret = e1npu_cmd_reloc(job->ops, seen, &r, uj->cmd_count, &err);
		if (ret) {
			drm_dbg(ddev, "job %u reloc %u: %s=%llu: %s (%d)\n",
				index, i, err.field, err.value, err.reason, ret);
			goto out;
		}
	}
	for (i = 0; i < uj->cmd_count; i++) {
		u32 need = e1npu_op_tensors(job->ops[i].opcode);

		if (seen[i] != need) {
			drm_dbg(ddev, "job %u command %u: tensors 0x%x used, 0x%x relocated\n",
				index, i, need, seen[i]);
			ret = -EINVAL;
			goto out;
		}
		ret = e1npu_op_check(&job->ops[i], uj->engine, &edev->lim,
				     e1npu_job_lookup, jc, &err);
		if (ret) {
			drm_dbg(ddev, "job %u command %u: %s=%llu: %s (%d)\n",
				index, i, err.field, err.value, err.reason, ret);
			goto out;
		}
	}
	ret = e1npu_job_prepare_ops(jc);
out:
	if (cmds != small)
		kvfree(cmds);
	return ret;
}
