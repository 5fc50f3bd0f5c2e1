// SPDX-License-Identifier: MIT
/*
 * Partitions of several QDQ groups: GetCapability merges claimed groups
 * joined by an 8-bit tensor into one fused node (when no path leaves the
 * merged set and comes back into it: ORT needs the fused node acyclic),
 * Compile builds one kernel per group and orders them, and Compute runs
 * them in turn, passing the tensors between them in slots (or in the
 * fused node's output buffer where ORT reads the tensor too). The
 * tensors a partition keeps inside never go back to ORT.
 *
 * Compiled models (EPContext) record one kernel per partition: with
 * ep.context_enable=1 groups are not merged.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ep.h"
#include "ep_graph.h"

/* ------------------------------------------------------------------ */
/* GetCapability: merging                                               */

/* every node of the graph, by address: its group (-1 none), a BFS mark */
struct nref {
	const OrtNode *n;
	int g;
	unsigned seen;
	size_t pos;		/* in the graph's topological order */
};

struct mctx {
	struct grp *g;
	struct nref *r;
	size_t nall;
	struct nref **q;	/* the BFS queue: each node once */
	unsigned gen;
};

static int cmp_nref(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct nref *)a)->n, y = (uintptr_t)((const struct nref *)b)->n;

	return x < y ? -1 : x > y;
}

static struct nref *lookup(const struct mctx *c, const OrtNode *n)
{
	struct nref key = { n, 0, 0, 0 };

	return bsearch(&key, c->r, c->nall, sizeof(*c->r), cmp_nref);
}

int grp_root(struct grp *g, int i)
{
	int r = i;

	while (g[r].root != r)
		r = g[r].root;
	while (g[i].root != r) {	/* path compression */
		int next = g[i].root;

		g[i].root = r;
		i = next;
	}
	return r;
}

/* the consumers of @n's outputs in *@out (malloc'd), their count; -1 on error */
static long consumers(const OrtNode *n, const OrtNode ***out)
{
	const OrtValueInfo *o[8];
	const OrtNode **all = NULL;
	size_t no = 0, cnt = 0;

	*out = NULL;
	if (!ok(ort->Node_GetNumOutputs(n, &no)) || no > 8 || !ok(ort->Node_GetOutputs(n, o, no)))
		return -1;
	for (size_t i = 0; i < no; i++) {
		size_t nc = 0;
		const OrtNode **c, **grown;
		int64_t *idx;

		if (!o[i] || !ok(ort->ValueInfo_GetValueNumConsumers(o[i], &nc)) || !nc)
			continue;
		c = calloc(nc, sizeof(*c));
		idx = calloc(nc, sizeof(*idx));
		grown = realloc(all, (cnt + nc) * sizeof(*all));
		if (!c || !idx || !grown || !ok(ort->ValueInfo_GetValueConsumers(o[i], c, idx, nc))) {
			free(c);
			free(idx);
			free(grown ? grown : all);
			return -1;
		}
		all = grown;
		for (size_t j = 0; j < nc; j++)
			if (c[j])
				all[cnt++] = c[j];
		free(c);
		free(idx);
	}
	*out = all;
	return (long)cnt;
}

static bool member(struct mctx *c, const struct nref *e, int ra, int rb)
{
	int r = e->g >= 0 ? grp_root(c->g, e->g) : -1;

	return r >= 0 && (r == ra || r == rb);
}

/*
 * true when a path leaves the union of partitions @ra and @rb and comes
 * back into it (merging them would make the fused node a cycle), or when
 * it cannot tell (a consumer outside this graph)
 */
static bool cycle(struct mctx *c, int ra, int rb)
{
	size_t nq = 0, last = 0;
	bool found = false;

	c->gen++;
	/* a node after the last member (topological order) cannot lead back */
	for (size_t i = 0; i < c->nall; i++)
		if (member(c, &c->r[i], ra, rb) && c->r[i].pos > last)
			last = c->r[i].pos;
	/* the outside consumers of the members, then on through the outside */
	for (size_t i = 0; i < c->nall && !found; i++) {
		const OrtNode **cs;
		long m;
		bool in = member(c, &c->r[i], ra, rb);

		if (!in)
			continue;
		m = consumers(c->r[i].n, &cs);
		found = m < 0;
		for (long j = 0; j < m && !found; j++) {
			struct nref *e = lookup(c, cs[j]);

			if (!e) {
				found = true;
			} else if (!member(c, e, ra, rb) && e->seen != c->gen && e->pos < last) {
				e->seen = c->gen;
				c->q[nq++] = e;
			}
		}
		free(cs);
	}
	for (size_t head = 0; head < nq && !found; head++) {
		const OrtNode **cs;
		long m = consumers(c->q[head]->n, &cs);

		found = m < 0;
		for (long j = 0; j < m && !found; j++) {
			struct nref *e = lookup(c, cs[j]);

			if (!e || member(c, e, ra, rb)) {
				found = true;
			} else if (e->seen != c->gen && e->pos < last) {
				e->seen = c->gen;
				c->q[nq++] = e;
			}
		}
		free(cs);
	}
	return found;
}

void part_merge(struct grp *g, size_t ng, const OrtNode *const *all, size_t nall)
{
	struct mctx c = { g, calloc(nall + 1, sizeof(*c.r)), nall, calloc(nall + 1, sizeof(*c.q)), 0 };

	for (size_t i = 0; i < ng; i++)
		g[i].root = (int)i;
	if (!c.r || !c.q)
		goto out;	/* nothing merged */
	for (size_t i = 0; i < nall; i++)
		c.r[i] = (struct nref){ all[i], -1, 0, i };	/* ORT's order: topological */
	qsort(c.r, nall, sizeof(*c.r), cmp_nref);
	for (size_t i = 0; i < ng; i++)
		for (size_t j = 0; j < g[i].nn; j++) {
			struct nref *e = lookup(&c, g[i].nodes[j]);

			if (e)
				e->g = (int)i;
		}
	for (size_t b = 0; b < ng; b++)
		for (size_t j = 0; j < g[b].nn; j++) {
			const OrtValueInfo *in[XK_MAXIN + 4];
			size_t ni;

			if (!ok(ort->Node_GetNumInputs(g[b].nodes[j], &ni)) || ni > XK_MAXIN + 4)
				continue;
			ni = node_inputs(g[b].nodes[j], in, XK_MAXIN + 4);
			for (size_t i = 0; i < ni; i++) {
				const OrtNode *p = in[i] ? producer(in[i]) : NULL;
				struct nref *e = p ? lookup(&c, p) : NULL;
				int ra, rb;

				if (!e || e->g < 0)
					continue;
				ra = grp_root(g, e->g);
				rb = grp_root(g, (int)b);
				if (ra != rb && !cycle(&c, ra, rb))
					g[rb > ra ? rb : ra].root = rb > ra ? ra : rb;
			}
		}
out:
	free(c.r);
	free(c.q);
}

/* ------------------------------------------------------------------ */
/* Compile                                                              */

struct built {
	struct kern *k;
	const char *out;	/* its output value's name */
	const char *xname, *wname, *rtname[6];
	int slot;		/* -1 none */
	bool placed;
};

static int fused_output(const OrtNode *fused, const char *name)
{
	const OrtValueInfo *o[64];
	size_t n = 0;

	if (!ok(ort->Node_GetNumOutputs(fused, &n)) || n > 64 || !ok(ort->Node_GetOutputs(fused, o, n)))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (o[i] && !strcmp(vi_name(o[i]), name))
			return (int)i;
	return -1;
}

/* a run-time operand: an earlier kernel's slot, or the fused node's input */
static OrtStatus *bind(const struct built *b, size_t nb, const OrtNode *fused, const char *name,
		       int *idx)
{
	for (size_t i = 0; i < nb; i++)
		if (b[i].placed && b[i].out && !strcmp(b[i].out, name) && b[i].slot >= 0) {
			*idx = -3 - b[i].slot;
			return NULL;
		}
	*idx = fused_input(fused, name);
	if (*idx < 0)
		return st(ORT_FAIL, "e1npu: compile: input %s not found", name);
	return NULL;
}

static bool reads(const struct built *b, const char *name)
{
	const struct xk *x = b->k->xk;

	if ((b->xname && !strcmp(b->xname, name)) || (b->wname && !strcmp(b->wname, name)))
		return true;
	for (size_t i = 0; x && i < x->nin; i++)
		if (x->names[i] && !strcmp(x->names[i], name))
			return true;
	return false;
}

static OrtStatus *bind_kern(struct built *b, size_t nb, size_t me, const OrtNode *fused)
{
	struct kern *k = b[me].k;
	OrtStatus *s;

	if (k->x.runtime_idx == -2 && (s = bind(b, nb, fused, b[me].xname, &k->x.runtime_idx)))
		return s;
	if (k->w.runtime_idx == -2 && (s = bind(b, nb, fused, b[me].wname, &k->w.runtime_idx)))
		return s;
	for (size_t i = 0; k->xk && i < k->xk->nin; i++)
		if (k->xk->in[i].runtime_idx == -2 &&
		    (s = bind(b, nb, fused, k->xk->names[i], &k->xk->in[i].runtime_idx)))
			return s;
	for (int r = 0; r < 6; r++) {
		k->rt[r] = -1;
		if (b[me].rtname[r] && (k->rt[r] = fused_input(fused, b[me].rtname[r])) < 0)
			return st(ORT_FAIL, "e1npu: compile: input %s not found", b[me].rtname[r]);
		k->rtv[r] = NULL;
	}
	k->out_idx = fused_output(fused, b[me].out);
	k->out_internal = k->out_idx < 0;
	k->out_slot1 = b[me].slot + 1;
	if (k->out_internal && b[me].slot < 0)
		return st(ORT_FAIL, "e1npu: compile: output %s neither read nor returned", b[me].out);
	return NULL;
}

static void free_built(struct built *b, size_t nb)
{
	for (size_t i = 0; i < nb; i++) {
		kern_free(b[i].k);
		free(b[i].k);
	}
	free(b);
}

OrtStatus *part_compile(struct e1_ep *ep, const OrtGraph *g, const OrtNode *fused,
			struct kern **head, const struct part_ops *po)
{
	size_t nn = 0, nb = 0, nplaced = 0;
	const OrtNode **nodes = NULL;
	bool *cov = NULL;
	struct built *b = NULL;
	struct kern *prev = NULL;
	const char *fname = node_name(fused), *why = "no group";
	OrtStatus *s = NULL;
	struct match m;

	*head = NULL;
	if (!ok(ort->Graph_GetNumNodes(g, &nn)) || !nn)
		return st(ORT_FAIL, "e1npu: compile: cannot read partition %s", fname);
	nodes = calloc(nn, sizeof(*nodes));
	cov = calloc(nn, sizeof(*cov));
	b = calloc(nn, sizeof(*b));
	if (!nodes || !cov || !b || !ok(ort->Graph_GetNodes(g, nodes, nn))) {
		s = st(ORT_FAIL, "e1npu: compile: cannot read partition %s", fname);
		goto out;
	}
	for (size_t j = 0; j < nn; j++) {
		bool inside = true;
		size_t at[MATCH_MAX_NODES];

		if (cov[j] || !po->anchor(node_op(nodes[j])))
			continue;
		/* the group's own node matches it (a Relu inside a
		 * DQ->Conv->Relu->Q group does not) */
		po->match(nodes[j], &m);
		for (size_t i = 0; i < m.nn && inside && !m.why; i++) {
			inside = false;
			for (size_t t = 0; t < nn && !inside; t++)
				if (nodes[t] == m.nodes[i] && !cov[t]) {
					inside = true;
					at[i] = t;
				}
		}
		if (m.why || !m.nn || !inside) {
			why = m.why ? m.why : "a group reaching outside the partition";
			kern_free(&m.k);
			continue;
		}
		b[nb].k = malloc(sizeof(*b[nb].k));
		if (!b[nb].k) {
			kern_free(&m.k);
			s = st(ORT_FAIL, "e1npu: out of memory");
			goto out;
		}
		*b[nb].k = m.k;
		b[nb].k->ep = ep;
		b[nb].out = vi_name(node_output0(m.nodes[m.nn - 1]));
		b[nb].xname = m.xv ? vi_name(m.xv) : NULL;
		b[nb].wname = m.wv ? vi_name(m.wv) : NULL;
		for (int r = 0; r < 6; r++)
			b[nb].rtname[r] = m.k.rtv[r] ? vi_name(m.k.rtv[r]) : NULL;
		b[nb].slot = -1;
		for (size_t i = 0; i < m.nn; i++)
			cov[at[i]] = true;
		nb++;
	}
	for (size_t j = 0; j < nn; j++)
		if (!cov[j]) {
			s = st(ORT_FAIL, "e1npu: compile: partition %s: node %s (%s) in no group (%s)",
			       fname, node_name(nodes[j]), node_op(nodes[j]), why);
			goto out;
		}
	/* slots: an output another kernel reads */
	for (size_t i = 0; i < nb; i++)
		for (size_t j = 0; j < nb; j++)
			if (i != j && reads(&b[j], b[i].out) && b[i].slot < 0)
				b[i].slot = (int)i;
	/* order: a kernel after those whose outputs it reads */
	while (nplaced < nb) {
		size_t before = nplaced;

		for (size_t i = 0; i < nb; i++) {
			bool ready = !b[i].placed;

			for (size_t j = 0; j < nb && ready; j++)
				if (j != i && !b[j].placed && reads(&b[i], b[j].out))
					ready = false;
			if (!ready)
				continue;
			if ((s = bind_kern(b, nb, i, fused)))
				goto out;
			snprintf(b[i].k->name, sizeof(b[i].k->name), nb > 1 ? "%s#%zu" : "%s", fname,
				 nplaced);
			b[i].placed = true;
			if (prev)
				prev->next = b[i].k;
			else
				*head = b[i].k;
			prev = b[i].k;
			nplaced++;
		}
		if (nplaced == before) {
			s = st(ORT_FAIL, "e1npu: compile: partition %s: groups in a cycle", fname);
			goto out;
		}
	}
	(*head)->nslots = nb;
	for (size_t i = 0; i < nb; i++)
		b[i].k = NULL;	/* owned by the chain now */
out:
	if (s) {
		/* unchain: each kernel is freed once, below */
		for (size_t i = 0; i < nb; i++)
			if (b[i].k)
				b[i].k->next = NULL;
		*head = NULL;
	}
	free_built(b, nb);
	free(nodes);
	free(cov);
	return s;
}

/* ------------------------------------------------------------------ */
/* Compute                                                              */

OrtStatus *part_run(struct kern *head, OrtKernelContext *ctx,
		    OrtStatus *(*run_fn)(struct kern *, OrtKernelContext *))
{
	OrtStatus *s = NULL;

	if (!slots_open(head->nslots))
		return st(ORT_FAIL, "e1npu: out of memory");
	for (struct kern *k = head; k && !s; k = k->next)
		s = run_fn(k, ctx);
	slots_close();
	return s;
}
