/* data/pt_read.c — torch.save files: the pickle read without running it, the tensor opened (load_int.h).
 *
 * torch.save writes a zip archive: ARCHIVE/data.pkl (a pickle, protocol 2 by default) describes
 * the tensors, ARCHIVE/data/KEY holds each storage's raw bytes. The pickle is a program for
 * Python's unpickler; this is a small interpreter for the opcodes a saved tensor (or a dict,
 * list or tuple of them) uses, that knows exactly these globals: torch._utils._rebuild_tensor_v2,
 * the storage classes of the dtypes the loaders read (FloatStorage, HalfStorage, ...) and
 * collections.OrderedDict (torch's backward hooks, and dicts saved as OrderedDict). Any other
 * global or opcode is refused by name; nothing is ever called. The result is a list of tensor
 * descriptions (dtype, shape, strides, storage offset and key); ld_src_open_pt picks the tensor a
 * role asks for, checks its storage member against it and hands it to load_src.c (ld_src_zip),
 * which reads its rows.
 * Limits: the pickle is at most PT_PICKLE_MAX bytes (checked by the caller), and every count
 * (objects, memo, children) is bounded by its length.
 */
#include "load_int.h"
#include "gs_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

enum { P_NONE, P_BOOL, P_INT, P_FLOAT, P_STR, P_TUPLE, P_LIST, P_DICT, P_GLOBAL, P_STORAGE, P_TENSOR, P_MARK };
enum { G_REBUILD, G_ODICT, G_STORAGE };

typedef struct {
    int type;
    int64_t i;          /* P_INT, P_BOOL; P_GLOBAL: which (G_*); P_TENSOR: index in the output */
    int dtype;          /* P_GLOBAL G_STORAGE, P_STORAGE */
    size_t s_off, s_len; /* P_STR: into the pickle; P_STORAGE: its key */
    int *kids;          /* containers: children (a dict: key, value, key, value, ...) */
    int nk, capk;
    uint64_t numel;     /* P_STORAGE */
} pobj;

typedef struct {
    const char *name;
    const unsigned char *b;
    size_t n, pos;
    pobj *o;
    int no, capo;
    int *st;
    int nst, capst;
    int *marks;
    int nmarks, capmarks;
    int *memo;
    long nmemo;
    long nkids;              /* children of every container, in all: capped by PT_MAX_ITEMS */
    pt_tensor *out;
    int cap_out, n_out;
} pvm;

static const struct { const char *cls; npy_dtype t; size_t size; } storages[] = {
    {"FloatStorage", NPY_F4, 4}, {"HalfStorage", NPY_F2, 2}, {"BFloat16Storage", NPY_BF16, 2},
    {"DoubleStorage", NPY_F8, 8}, {"LongStorage", NPY_I8, 8}, {"IntStorage", NPY_I4, 4},
    {"ShortStorage", NPY_I2, 2}, {"CharStorage", NPY_I1, 1}, {"ByteStorage", NPY_U1, 1},
    {"BoolStorage", NPY_B1, 1},
};

size_t pt_itemsize(npy_dtype t)
{
    for (size_t k = 0; k < sizeof storages / sizeof storages[0]; k++)
        if (storages[k].t == t) return storages[k].size;
    return 0;
}

static int bad(pvm *v, const char *what)
{
    return gs_error(GS_EINPUT, "%s: %s (at byte %zu of the pickle)", v->name, what, v->pos);
}

static int grow(void **p, int *cap, int need, size_t sz)
{
    if (need <= *cap) return GS_OK;
    int nc = *cap ? *cap : 16;
    while (nc < need) {
        if (nc > (1 << 26)) return GS_ENOMEM;
        nc *= 2;
    }
    void *q = realloc(*p, (size_t)nc * sz);
    if (!q) return GS_ENOMEM;
    *p = q;
    *cap = nc;
    return GS_OK;
}

static int new_obj(pvm *v, int type, int *id)
{
    /* every object comes from at least one byte of the pickle; a pickle of tensors needs a few per
     * tensor: far more is a pickle bomb (nested lists and tuples), refused before it grows */
    if (v->no >= PT_MAX_OBJECTS)
        return gs_error(GS_EINPUT, "%s: the pickle builds more than %d objects, more than a pickle of tensors "
                        "needs (a pickle bomb?); refused", v->name, PT_MAX_OBJECTS);
    if ((size_t)v->no > v->n + 16 || grow((void **)&v->o, &v->capo, v->no + 1, sizeof(pobj)))
        return gs_error(GS_ENOMEM, "%s: out of memory reading the pickle", v->name);
    memset(&v->o[v->no], 0, sizeof(pobj));
    v->o[v->no].type = type;
    *id = v->no++;
    return GS_OK;
}

static int push(pvm *v, int id)
{
    if (grow((void **)&v->st, &v->capst, v->nst + 1, sizeof(int)))
        return gs_error(GS_ENOMEM, "%s: out of memory reading the pickle", v->name);
    v->st[v->nst++] = id;
    return GS_OK;
}

static int push_new(pvm *v, int type, int *id)
{
    int st = new_obj(v, type, id);
    return st ? st : push(v, *id);
}

static int pop(pvm *v, int *id)
{
    if (v->nst <= (v->nmarks ? v->marks[v->nmarks - 1] : 0)) return bad(v, "malformed pickle (stack underflow)");
    *id = v->st[--v->nst];
    return GS_OK;
}

static int add_kid(pvm *v, int parent, int kid)
{
    pobj *p = &v->o[parent];
    if (++v->nkids > PT_MAX_ITEMS)
        return gs_error(GS_EINPUT, "%s: the pickle's containers hold more than %d items, more than a pickle of "
                        "tensors needs (a pickle bomb?); refused", v->name, PT_MAX_ITEMS);
    if (grow((void **)&p->kids, &p->capk, p->nk + 1, sizeof(int)))
        return gs_error(GS_ENOMEM, "%s: out of memory reading the pickle", v->name);
    p->kids[p->nk++] = kid;
    return GS_OK;
}

static int need(pvm *v, size_t k)
{
    if (v->n - v->pos < k) return bad(v, "the pickle is truncated");
    return GS_OK;
}

static uint64_t le(const unsigned char *p, int k)
{
    uint64_t x = 0;
    for (int i = k - 1; i >= 0; i--) x = x << 8 | p[i];
    return x;
}

static int str_is(const pvm *v, int id, const char *s)
{
    const pobj *o = &v->o[id];
    return o->type == P_STR && o->s_len == strlen(s) && memcmp(v->b + o->s_off, s, o->s_len) == 0;
}

/* A global by module and name: one of the few known, or refused naming it. */
static int global(pvm *v, const char *mod, size_t ml, const char *nm, size_t nl)
{
    int id, which = -1, dt = 0;
    if (ml == 12 && !memcmp(mod, "torch._utils", 12) && nl == 18 && !memcmp(nm, "_rebuild_tensor_v2", 18)) which = G_REBUILD;
    else if (ml == 11 && !memcmp(mod, "collections", 11) && nl == 11 && !memcmp(nm, "OrderedDict", 11)) which = G_ODICT;
    else if (ml == 5 && !memcmp(mod, "torch", 5))
        for (size_t k = 0; k < sizeof storages / sizeof storages[0]; k++)
            if (nl == strlen(storages[k].cls) && !memcmp(nm, storages[k].cls, nl)) { which = G_STORAGE; dt = (int)storages[k].t; }
    if (which < 0) {
        int storage = ml == 5 && !memcmp(mod, "torch", 5) && nl > 7 && !memcmp(nm + nl - 7, "Storage", 7);
        if (storage)
            return gs_error(GS_EINPUT, "%s: unknown storage type torch.%.*s (readable: float32, float16, "
                            "bfloat16, float64, int64, int32, int16, int8, uint8); convert the tensor, "
                            "e.g. t.float()", v->name, (int)(nl < 80 ? nl : 80), nm);
        return gs_error(GS_EINPUT, "%s: the pickle names the global '%.*s.%.*s', which a saved tensor does "
                        "not need; refused without running it (save plain tensors: torch.save(t) or a "
                        "dict of tensors)", v->name, (int)(ml < 100 ? ml : 100), mod, (int)(nl < 100 ? nl : 100), nm);
    }
    int st = push_new(v, P_GLOBAL, &id);
    if (st) return st;
    v->o[id].i = which;
    v->o[id].dtype = dt;
    return GS_OK;
}

static int int_of(const pvm *v, int id, int64_t *x)
{
    if (v->o[id].type != P_INT) return 0;
    *x = v->o[id].i;
    return 1;
}

/* _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks
 * [, metadata]) -> a tensor description. */
static int rebuild(pvm *v, int args, int *id)
{
    const pobj *a = &v->o[args];
    if (a->type != P_TUPLE || a->nk < 6 || a->nk > 7) return bad(v, "_rebuild_tensor_v2 with unexpected arguments");
    const pobj *s = &v->o[a->kids[0]], *size = &v->o[a->kids[2]], *stride = &v->o[a->kids[3]];
    int64_t off;
    if (s->type != P_STORAGE || !int_of(v, a->kids[1], &off) || off < 0 || size->type != P_TUPLE ||
        stride->type != P_TUPLE || size->nk != stride->nk || v->o[a->kids[4]].type != P_BOOL ||
        v->o[a->kids[5]].type != P_DICT || (a->nk == 7 && v->o[a->kids[6]].type != P_NONE && v->o[a->kids[6]].type != P_DICT))
        return bad(v, "_rebuild_tensor_v2 with unexpected arguments");
    if (v->o[a->kids[5]].nk) return bad(v, "a tensor with backward hooks (save t.detach())");
    if (v->n_out >= v->cap_out)
        return gs_error(GS_EINPUT, "%s: more than %d tensors in one file", v->name, v->cap_out);
    pt_tensor *t = &v->out[v->n_out];
    memset(t, 0, sizeof *t);
    t->dtype = (npy_dtype)s->dtype;
    t->itemsize = pt_itemsize(t->dtype);
    t->ndim = size->nk;
    if (t->ndim > PT_MAX_DIM) return gs_error(GS_EINPUT, "%s: a tensor of %d dimensions", v->name, t->ndim);
    for (int k = 0; k < t->ndim; k++) {
        int64_t n, d;
        if (!int_of(v, size->kids[k], &n) || !int_of(v, stride->kids[k], &d) || n < 0 || d < 0)
            return bad(v, "a tensor whose size or stride is not a tuple of non-negative integers");
        t->shape[k] = (long)n;
        t->stride[k] = (long)d;
    }
    t->offset = (uint64_t)off;
    snprintf(t->storage, sizeof t->storage, "%.*s", (int)(s->s_len < 63 ? s->s_len : 63), (const char *)v->b + s->s_off);
    t->numel = s->numel;
    int st = push_new(v, P_TENSOR, id);
    if (st) return st;
    v->o[*id].i = v->n_out++;
    return GS_OK;
}

/* A dict key as text: a string, or an integer. */
static void key_text(const pvm *v, int id, char *out, size_t cap)
{
    const pobj *o = &v->o[id];
    if (o->type == P_STR) snprintf(out, cap, "%.*s", (int)(o->s_len < cap - 1 ? o->s_len : cap - 1), (const char *)v->b + o->s_off);
    else if (o->type == P_INT) snprintf(out, cap, "%lld", (long long)o->i);
    else snprintf(out, cap, "?");
}

static int run(pvm *v, int *result)
{
    int st = GS_OK, id, a, b;
    while (!st) {
        if (v->pos >= v->n) return bad(v, "the pickle ends without STOP");
        size_t at = v->pos;
        unsigned char op = v->b[v->pos++];
        switch (op) {
        case 0x80: /* PROTO */
            if ((st = need(v, 1))) break;
            if (v->b[v->pos] < 2 || v->b[v->pos] > 5) st = bad(v, "unsupported pickle protocol");
            v->pos++;
            break;
        case 0x95: /* FRAME */
            if (!(st = need(v, 8))) v->pos += 8;
            break;
        case '}': st = push_new(v, P_DICT, &id); break;
        case ']': st = push_new(v, P_LIST, &id); break;
        case ')': st = push_new(v, P_TUPLE, &id); break;
        case 'N': st = push_new(v, P_NONE, &id); break;
        case 0x88: case 0x89:
            if (!(st = push_new(v, P_BOOL, &id))) v->o[id].i = op == 0x88;
            break;
        case '(': /* MARK */
            if (grow((void **)&v->marks, &v->capmarks, v->nmarks + 1, sizeof(int))) return gs_error(GS_ENOMEM, "%s: out of memory", v->name);
            v->marks[v->nmarks++] = v->nst;
            break;
        case 'X': case 0x8c: case 0x8d: { /* BINUNICODE, SHORT_BINUNICODE, BINUNICODE8 */
            int k = op == 'X' ? 4 : op == 0x8c ? 1 : 8;
            if ((st = need(v, (size_t)k))) break;
            uint64_t len = le(v->b + v->pos, k);
            v->pos += (size_t)k;
            if (len > v->n - v->pos) { st = bad(v, "a string runs past the end of the pickle"); break; }
            if ((st = push_new(v, P_STR, &id))) break;
            v->o[id].s_off = v->pos;
            v->o[id].s_len = (size_t)len;
            v->pos += (size_t)len;
            break;
        }
        case 'K': case 'M': case 'J': case 0x8a: { /* BININT1, BININT2, BININT, LONG1 */
            int k = op == 'K' ? 1 : op == 'M' ? 2 : 4;
            if (op == 0x8a) {
                if ((st = need(v, 1))) break;
                k = v->b[v->pos++];
                if (k > 8) { st = bad(v, "an integer too large for a tensor's size"); break; }
            }
            if ((st = need(v, (size_t)k))) break;
            uint64_t x = le(v->b + v->pos, k);
            v->pos += (size_t)k;
            int64_t val;
            if ((op == 'J' || op == 0x8a) && k > 0 && k < 8 && (x >> (8 * k - 1) & 1)) val = (int64_t)(x | ~(uint64_t)0 << (8 * k));
            else val = (int64_t)x;
            if ((st = push_new(v, P_INT, &id))) break;
            v->o[id].i = val;
            break;
        }
        case 'G': /* BINFLOAT */
            if (!(st = need(v, 8)) && !(st = push_new(v, P_FLOAT, &id))) v->pos += 8;
            break;
        case 'q': case 'r': case 0x94: { /* BINPUT, LONG_BINPUT, MEMOIZE */
            uint64_t k;
            if (op == 0x94) k = (uint64_t)v->nmemo;
            else {
                int w = op == 'q' ? 1 : 4;
                if ((st = need(v, (size_t)w))) break;
                k = le(v->b + v->pos, w);
                v->pos += (size_t)w;
            }
            if (v->nst == 0 || (v->nmarks && v->nst <= v->marks[v->nmarks - 1])) { st = bad(v, "malformed pickle (memo of nothing)"); break; }
            /* the pickler numbers its memo 0, 1, 2, ...: an index past every object made is forged */
            if (k > (uint64_t)v->no + 256) { st = bad(v, "a memo index out of range"); break; }
            if ((long)k >= v->nmemo) {
                int cap = (int)v->nmemo, nn = (int)k + 1;
                int *m = realloc(v->memo, (size_t)nn * sizeof(int));
                if (!m) return gs_error(GS_ENOMEM, "%s: out of memory", v->name);
                for (int i = cap; i < nn; i++) m[i] = -1;
                v->memo = m;
                v->nmemo = nn;
            }
            v->memo[k] = v->st[v->nst - 1];
            break;
        }
        case 'h': case 'j': { /* BINGET, LONG_BINGET */
            int w = op == 'h' ? 1 : 4;
            if ((st = need(v, (size_t)w))) break;
            uint64_t k = le(v->b + v->pos, w);
            v->pos += (size_t)w;
            if ((long)k >= v->nmemo || k >= (uint64_t)v->nmemo || v->memo[k] < 0) { st = bad(v, "a memo index never stored"); break; }
            st = push(v, v->memo[k]);
            break;
        }
        case 'c': { /* GLOBAL "module\nname\n" */
            const char *p = (const char *)v->b + v->pos, *end = (const char *)v->b + v->n;
            const char *nl1 = memchr(p, '\n', (size_t)(end - p));
            const char *nl2 = nl1 ? memchr(nl1 + 1, '\n', (size_t)(end - nl1 - 1)) : NULL;
            if (!nl2) { st = bad(v, "a global's name runs past the end of the pickle"); break; }
            v->pos = (size_t)(nl2 + 1 - (const char *)v->b);
            st = global(v, p, (size_t)(nl1 - p), nl1 + 1, (size_t)(nl2 - nl1 - 1));
            break;
        }
        case 0x93: /* STACK_GLOBAL */
            if ((st = pop(v, &b)) || (st = pop(v, &a))) break;
            if (v->o[a].type != P_STR || v->o[b].type != P_STR) { st = bad(v, "STACK_GLOBAL of non-strings"); break; }
            st = global(v, (const char *)v->b + v->o[a].s_off, v->o[a].s_len, (const char *)v->b + v->o[b].s_off, v->o[b].s_len);
            break;
        case 't': case 0x85: case 0x86: case 0x87: { /* TUPLE, TUPLE1..3 */
            int from;
            if (op == 't') {
                if (!v->nmarks) { st = bad(v, "malformed pickle (TUPLE without MARK)"); break; }
                from = v->marks[--v->nmarks];
            } else {
                from = v->nst - (op - 0x84);
                if (from < (v->nmarks ? v->marks[v->nmarks - 1] : 0)) { st = bad(v, "malformed pickle (stack underflow)"); break; }
            }
            if ((st = new_obj(v, P_TUPLE, &id))) break;
            for (int k = from; k < v->nst && !st; k++) st = add_kid(v, id, v->st[k]);
            v->nst = from;
            if (!st) st = push(v, id);
            break;
        }
        case 'Q': { /* BINPERSID: ('storage', StorageClass, key, location, numel) */
            if ((st = pop(v, &a))) break;
            const pobj *t = &v->o[a];
            int64_t numel;
            if (t->type != P_TUPLE || t->nk != 5 || !str_is(v, t->kids[0], "storage") ||
                v->o[t->kids[1]].type != P_GLOBAL || v->o[t->kids[1]].i != G_STORAGE ||
                v->o[t->kids[2]].type != P_STR || v->o[t->kids[3]].type != P_STR || !int_of(v, t->kids[4], &numel) || numel < 0) {
                st = bad(v, "a persistent id that is not a torch storage");
                break;
            }
            if ((st = new_obj(v, P_STORAGE, &id))) break;
            t = &v->o[a]; /* new_obj may move v->o */
            v->o[id].dtype = v->o[t->kids[1]].dtype;
            v->o[id].s_off = v->o[t->kids[2]].s_off;
            v->o[id].s_len = v->o[t->kids[2]].s_len;
            v->o[id].numel = (uint64_t)numel;
            st = push(v, id);
            break;
        }
        case 'R': { /* REDUCE: only the two known callables */
            if ((st = pop(v, &b)) || (st = pop(v, &a))) break;
            if (v->o[a].type != P_GLOBAL || v->o[b].type != P_TUPLE) { st = bad(v, "REDUCE of something not callable"); break; }
            if (v->o[a].i == G_REBUILD) st = rebuild(v, b, &id);
            else if (v->o[a].i == G_ODICT && v->o[b].nk == 0) st = push_new(v, P_DICT, &id);
            else st = bad(v, v->o[a].i == G_ODICT ? "OrderedDict called with arguments" : "a storage class called directly");
            break;
        }
        case 's': case 'u': case 'a': case 'e': { /* SETITEM(S), APPEND(S) */
            int from;
            if (op == 'u' || op == 'e') {
                if (!v->nmarks) { st = bad(v, "malformed pickle (SETITEMS without MARK)"); break; }
                from = v->marks[--v->nmarks];
            } else {
                from = v->nst - (op == 's' ? 2 : 1);
                if (from < (v->nmarks ? v->marks[v->nmarks - 1] : 0)) { st = bad(v, "malformed pickle (stack underflow)"); break; }
            }
            if (from < 1 || (v->nmarks && from - 1 < v->marks[v->nmarks - 1])) { st = bad(v, "malformed pickle (stack underflow)"); break; }
            int target = v->st[from - 1], dict = op == 's' || op == 'u';
            if (v->o[target].type != (dict ? P_DICT : P_LIST)) { st = bad(v, dict ? "SETITEM on a non-dict" : "APPEND on a non-list"); break; }
            if (dict && (v->nst - from) % 2) { st = bad(v, "SETITEMS with an odd number of items"); break; }
            for (int k = from; k < v->nst && !st; k++) st = add_kid(v, target, v->st[k]);
            v->nst = from;
            break;
        }
        case '.': /* STOP */
            if (v->nst != 1 || v->nmarks) return bad(v, "malformed pickle (STOP with a stack not of one object)");
            *result = v->st[0];
            return GS_OK;
        default: {
            char w[96];
            snprintf(w, sizeof w, "the pickle uses opcode 0x%02x, which a saved tensor does not need; refused", op);
            v->pos = at;
            st = bad(v, w);
        }
        }
    }
    return st;
}

int pt_pickle(const char *name, const unsigned char *buf, size_t n, pt_tensor *out, int cap, int *nt, int *kind)
{
    pvm v;
    memset(&v, 0, sizeof v);
    v.name = name;
    v.b = buf;
    v.n = n;
    v.out = out;
    v.cap_out = cap;
    int res = -1;
    int st = run(&v, &res);
    *nt = 0;
    if (!st) {
        const pobj *r = &v.o[res];
        if (r->type == P_TENSOR) {
            *kind = PT_ONE;
            out[0].key[0] = '\0';
            *nt = 1;
            if (v.o[res].i != 0) { out[0] = out[v.o[res].i]; out[0].key[0] = '\0'; }
        } else if (r->type == P_DICT || r->type == P_LIST || r->type == P_TUPLE) {
            *kind = r->type == P_DICT ? PT_DICT : PT_LIST;
            int step = r->type == P_DICT ? 2 : 1, m = 0;
            pt_tensor *tmp = gs_malloc((size_t)(v.n_out ? v.n_out : 1), sizeof *tmp, name);
            if (!tmp) st = GS_ENOMEM;
            else {
                memcpy(tmp, out, (size_t)v.n_out * sizeof *tmp);
                for (int k = 0; k + step - 1 < r->nk; k += step) {
                    const pobj *val = &v.o[r->kids[k + step - 1]];
                    if (val->type != P_TENSOR) continue; /* other values (numbers, names) are not ours */
                    out[m] = tmp[val->i];
                    if (step == 2) key_text(&v, r->kids[k], out[m].key, sizeof out[m].key);
                    else snprintf(out[m].key, sizeof out[m].key, "%d", k);
                    m++;
                }
                free(tmp);
                *nt = m;
            }
        } else {
            st = gs_error(GS_EINPUT, "%s: the pickle holds no tensor (a tensor, or a dict, list or tuple "
                          "of tensors, is needed)", name);
        }
    }
    for (int i = 0; i < v.no; i++) free(v.o[i].kids);
    free(v.o);
    free(v.st);
    free(v.marks);
    free(v.memo);
    return st;
}

/* ---- opening a torch.save file: the pickle's tensor, its storage member ---- */

static const char *const pt_roles[4][2] = {
    {"train_features", "X_train"}, {"train_labels", "y_train"}, {"test_features", "X_test"}, {"test_labels", "y_test"},
};

/* The keys of the tensors, for messages. */
static void pt_keys(const pt_tensor *t, int nt, char *out, size_t cap)
{
    out[0] = '\0';
    for (int k = 0; k < nt && strlen(out) < cap - 140; k++) {
        size_t L = strlen(out);
        snprintf(out + L, cap - L, "%s%s", k ? ", " : "", t[k].key);
    }
    if (!nt) snprintf(out, cap, "no tensor");
}

static int pt_choose(const char *path, const pt_tensor *t, int nt, int kind, const char *key, int role, int *pick)
{
    char keys[1024];
    pt_keys(t, nt, keys, sizeof keys);
    if (kind == PT_ONE) {
        if (key) return gs_error(GS_EINPUT, "%s: holds one tensor, not a dict; give the file without ':%s'", path, key);
        *pick = 0;
        return GS_OK;
    }
    if (key) {
        for (int k = 0; k < nt; k++) if (!strcmp(t[k].key, key)) { *pick = k; return GS_OK; }
        return gs_error(GS_EINPUT, "%s: has no tensor '%s' (it holds: %s)", path, key, keys);
    }
    if (role >= 0 && role < 4)
        for (int n = 0; n < 2; n++)
            for (int k = 0; kind == PT_DICT && k < nt; k++)
                if (!strcmp(t[k].key, pt_roles[role][n])) { *pick = k; return GS_OK; }
    if (nt == 1) { *pick = 0; return GS_OK; }
    if (role >= 0 && role < 4)
        return gs_error(GS_EINPUT, "%s: has no tensor %s or %s (it holds: %s); name one as %s:KEY", path,
                        pt_roles[role][0], pt_roles[role][1], keys, path);
    return gs_error(GS_EINPUT, "%s: holds %d tensors (%s); name one as %s:KEY", path, nt, keys, path);
}

/* Read a whole small member (the pickle, byteorder) into *buf (NUL-terminated). */
static int pt_member(const char *path, zip_t *za, zip_int64_t idx, uint64_t max, unsigned char **buf, size_t *n)
{
    zip_stat_t zs;
    zip_stat_init(&zs);
    const char *nm = zip_get_name(za, (zip_uint64_t)idx, 0);
    if (zip_stat_index(za, (zip_uint64_t)idx, 0, &zs) != 0 || !(zs.valid & ZIP_STAT_SIZE))
        return gs_error(GS_EINPUT, "%s: %s: cannot read the member's size: %s", path, nm, zip_strerror(za));
    if (zs.size > max)
        return gs_error(GS_EINPUT, "%s: %s: %llu bytes, more than a pickle of tensors needs (limit %llu)", path, nm,
                        (unsigned long long)zs.size, (unsigned long long)max);
    if ((zs.valid & ZIP_STAT_COMP_SIZE) && (zs.valid & ZIP_STAT_COMP_METHOD) &&
        ((zs.comp_method == ZIP_CM_STORE && zs.size != zs.comp_size) ||
         (zs.comp_method == ZIP_CM_DEFLATE && zs.size / 1032 > zs.comp_size + 1)))
        return gs_error(GS_EINPUT, "%s: %s: claims %llu bytes from %llu stored (damaged or forged archive)", path, nm,
                        (unsigned long long)zs.size, (unsigned long long)zs.comp_size);
    *buf = malloc((size_t)zs.size + 1);
    if (!*buf) return gs_error(GS_ENOMEM, "%s: out of memory", path);
    zip_file_t *zf = zip_fopen_index(za, (zip_uint64_t)idx, 0);
    int st = GS_OK;
    if (!zf) st = gs_error(GS_EINPUT, "%s: %s: cannot read: %s", path, nm, zip_strerror(za));
    size_t got = 0;
    while (!st && got < zs.size) {
        zip_int64_t k = zip_fread(zf, *buf + got, zs.size - got);
        if (k < 0) st = gs_error(GS_EINPUT, "%s: %s: read error: %s (damaged archive?)", path, nm, zip_file_strerror(zf));
        else if (k == 0) st = gs_error(GS_EINPUT, "%s: %s: the member is truncated (damaged archive)", path, nm);
        else got += (size_t)k;
    }
    unsigned char one;
    if (!st && zip_fread(zf, &one, 1) != 0)
        st = gs_error(GS_EINPUT, "%s: %s: damaged member (its checksum or size does not match)", path, nm);
    if (zf) zip_fclose(zf);
    if (st) { free(*buf); *buf = NULL; return st; }
    (*buf)[got] = 0;
    *n = got;
    return GS_OK;
}

/* Takes ownership of za. */
static int pt_open(const char *path, zip_t *za, const char *key, int role, ld_src **out)
{
    *out = NULL;
    char prefix[512] = "", holds[512] = "";
    zip_int64_t m = zip_get_num_entries(za, 0), pkl = -1;
    for (zip_int64_t i = 0; i < m; i++) {
        const char *nm = zip_get_name(za, (zip_uint64_t)i, 0);
        if (!nm) continue;
        size_t L = strlen(nm), H = strlen(holds);
        if (H < 400) snprintf(holds + H, sizeof holds - H, "%s%s", i ? ", " : "", nm);
        const char *slash = strchr(nm, '/');
        if (L < 500 && ((!strcmp(nm, "data.pkl")) || (slash && !strcmp(slash, "/data.pkl")))) {
            if (pkl >= 0) { zip_discard(za); return gs_error(GS_EINPUT, "%s: holds two pickles (data.pkl); not one torch.save file", path); }
            pkl = i;
            snprintf(prefix, sizeof prefix, "%.*s", (int)(L - 8), nm);
        }
    }
    if (pkl < 0) {
        zip_discard(za);
        return gs_error(GS_EINPUT, "%s: not a torch.save file: no ARCHIVE/data.pkl (it holds: %s)", path, m ? holds : "nothing");
    }
    char mn[700];
    unsigned char *b = NULL;
    size_t bn = 0;
    snprintf(mn, sizeof mn, "%sbyteorder", prefix);
    zip_int64_t bo = zip_name_locate(za, mn, 0);
    int st = GS_OK;
    if (bo >= 0 && !(st = pt_member(path, za, bo, 64, &b, &bn))) {
        if (strcmp((char *)b, "little") != 0)
            st = gs_error(GS_EINPUT, "%s: byteorder says '%.16s'; only little-endian files are read (save it "
                          "on a little-endian machine)", path, (char *)b);
        free(b);
        b = NULL;
    }
    if (!st) st = pt_member(path, za, pkl, PT_PICKLE_MAX, &b, &bn);
    pt_tensor *t = st ? NULL : gs_malloc(PT_MAX_TENSORS, sizeof *t, path);
    if (!st && !t) st = GS_ENOMEM;
    int nt = 0, kind = 0, pick = 0;
    if (!st) st = pt_pickle(path, b, bn, t, PT_MAX_TENSORS, &nt, &kind);
    free(b);
    if (!st) st = pt_choose(path, t, nt, kind, key, role, &pick);
    if (st) { free(t); zip_discard(za); return st; }
    pt_tensor tt = t[pick];
    free(t);

    char nm[4400];
    if (tt.key[0]) snprintf(nm, sizeof nm, "%s: %s", path, tt.key);
    else snprintf(nm, sizeof nm, "%s", path);
    zip_int64_t zidx = -1;
    if (tt.ndim == 0)
        st = gs_error(GS_EINPUT, "%s: a 0-d tensor (one number); need 1-D labels or 2-D features", nm);
    else if (tt.ndim > 2)
        st = gs_error(GS_EINPUT, "%s: a %d-D tensor; need 1-D labels or 2-D features (rows × dimensions; "
                      "e.g. t.flatten(1))", nm, tt.ndim);
    zip_stat_t zs;
    zip_stat_init(&zs);
    if (!st) {
        snprintf(mn, sizeof mn, "%sdata/%s", prefix, tt.storage);
        zidx = zip_name_locate(za, mn, 0);
        if (zidx < 0)
            st = gs_error(GS_EINPUT, "%s: the storage %s the pickle names is missing (damaged file)", nm, mn);
        else if (zip_stat_index(za, (zip_uint64_t)zidx, 0, &zs) != 0 || !(zs.valid & ZIP_STAT_SIZE))
            st = gs_error(GS_EINPUT, "%s: cannot read the size of %s: %s", nm, mn, zip_strerror(za));
        else if ((zs.valid & ZIP_STAT_ENCRYPTION_METHOD) && zs.encryption_method != ZIP_EM_NONE)
            st = gs_error(GS_EINPUT, "%s: %s is encrypted", nm, mn);
    }
    uint64_t it = tt.itemsize;
    if (!st && (tt.numel > UINT64_MAX / 16 || zs.size != tt.numel * it))
        st = gs_error(GS_EINPUT, "%s: %s holds %llu bytes but the pickle says %llu values of %llu bytes "
                      "(truncated or forged file)", nm, mn, (unsigned long long)zs.size,
                      (unsigned long long)tt.numel, (unsigned long long)it);
    if (!st && (zs.valid & ZIP_STAT_COMP_SIZE) && (zs.valid & ZIP_STAT_COMP_METHOD) &&
        ((zs.comp_method == ZIP_CM_STORE && zs.size != zs.comp_size) ||
         (zs.comp_method == ZIP_CM_DEFLATE && zs.size / 1032 > zs.comp_size + 1)))
        st = gs_error(GS_EINPUT, "%s: %s claims %llu bytes from %llu stored (damaged or forged archive)", nm, mn,
                      (unsigned long long)zs.size, (unsigned long long)zs.comp_size);
    long r = tt.shape[0], c = tt.ndim == 2 ? tt.shape[1] : 1;
    long rs = tt.stride[0], cs = tt.ndim == 2 ? tt.stride[1] : 1;
    if (!st && r > 0 && c > 0) {
        /* the last element's offset, within the storage (each term checked against overflow) */
        uint64_t lim = (uint64_t)1 << 62, a1 = (uint64_t)(r - 1), a2 = (uint64_t)(c - 1);
        int over = tt.offset > lim || (rs && a1 > lim / (uint64_t)rs) || (cs && a2 > lim / (uint64_t)cs);
        uint64_t last = over ? 0 : tt.offset + a1 * (uint64_t)rs + a2 * (uint64_t)cs;
        if (over || last >= tt.numel)
            st = gs_error(GS_EINPUT, "%s: the tensor's size, stride and offset reach past its storage of %llu "
                          "values (damaged or forged file)", nm, (unsigned long long)tt.numel);
        else if (cs != 1 && rs != 1 && c > 1 && (a2 * (uint64_t)cs + 1) * it > ((uint64_t)64 << 20))
            st = gs_error(GS_EINPUT, "%s: a view whose rows spread over more than 64 MB of its storage; save "
                          "t.contiguous() instead", nm);
    }
    if (!st && tt.offset > tt.numel)
        st = gs_error(GS_EINPUT, "%s: storage offset %llu past its storage of %llu values (damaged or forged file)",
                      nm, (unsigned long long)tt.offset, (unsigned long long)tt.numel);
    if (st) { zip_discard(za); return st; }
    npy_array a;
    memset(&a, 0, sizeof a);
    a.dtype = tt.dtype;
    a.itemsize = tt.itemsize;
    a.ndim = tt.ndim;
    a.shape[0] = r;
    a.shape[1] = c;
    a.fortran = tt.ndim == 2 && rs == 1 && cs != 1 && r > 1;
    int seekable = (zs.valid & ZIP_STAT_COMP_METHOD) && zs.comp_method == ZIP_CM_STORE;
    return ld_src_zip(za, zidx, seekable, nm, &a, rs, cs, tt.offset * it, tt.numel * it - tt.offset * it, out);
}

static const char PT_HINT[] = "; is it truncated, or saved with torch.save(..., "
                               "_use_new_zipfile_serialization=False)? re-save it with a current torch.save";

int ld_src_open_pt(const char *path, const char *key, int role, ld_src **out)
{
    *out = NULL;
    zip_t *za;
    int st = ld_zip_open(path, ".pt", PT_HINT, &za);
    if (st) return st;
    return pt_open(path, za, key, role, out);
}

int ld_src_open_pt_mem(const char *name, const void *buf, size_t n, const char *key, int role, ld_src **out)
{
    *out = NULL;
    zip_t *za;
    int st = ld_zip_open_mem(name, buf, n, ".pt", &za);
    if (st) return st;
    return pt_open(name, za, key, role, out);
}
