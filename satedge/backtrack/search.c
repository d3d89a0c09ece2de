/* The backtracker's search loop, compiled for one cell order (satedge.backtrack.native).
 *
 * It does what satedge.backtrack.advance.advance does, with the same arguments, the same state
 * and the same outcomes: from position depth[0] it runs until the next placement of cells
 * 0..last (FOUND: placed holds it), the end of the tree below floor (DONE) or budget
 * candidates (PAUSED), and counts the candidates it tried and the placements it made.
 *
 * With a budget of misfits (BUDGETED), allow[i] is the most misfits the placements of positions
 * 0..i may have and spent[i] those of positions 0..i - 1; a position's keys come in three phases
 * of NKP keys each (the placements that fit both first earlier neighbours, that miss one, that
 * miss both), the next phase tried once a phase is done, while the budget lasts.  With DEEPEST
 * too, best[] keeps the deepest placements made (best[0] of them, best[1] misfits, the fewest
 * among equally deep ones, the placements from best[2] on).  With QUOTA, qsides[t] is the number of
 * tile t's sides of the quota's labels, quota[i] the least such sides positions 0..i must show and
 * qsum[i] those of positions 0..i - 1; the tiles are numbered quota-rich first, so a candidate that
 * falls short ends its layer of keys (the loop goes on with the next layer or phase).
 *
 * What varies by puzzle comes from board.h, which satedge writes for each cell order and
 * puzzle shape: the sizes (N cells, TW words of tiles - 1, NK keys, MW words of masks a key has,
 * NL labels, TURNS slots a key has in the rotation table without misfits, NKP keys per phase;
 * with misfits the table is flat and key k's slots start at base[k]), whether the entries are
 * compact (COMPACT: only those there are, cstart[] where each key's words start), whether the
 * labels fit a byte (PACKED), whether there are identical tiles (TWINS), whether misfits are
 * allowed (BUDGETED), whether a quota holds (QUOTA), the outcome codes, and the table CELLS of one
 * X(...) per position:
 *
 *   X(P, BEFORE, AFTER, KIND, PREV, D0, S0, D1, S1, EXTRA, O2, C2, S2, O3, C3, S3)
 *
 * P the position, BEFORE and AFTER the positions around it (none before the first, end after
 * the last), KIND its kind's first key, PREV whether its first earlier neighbour is the
 * position just before it, (D0, S0) and (D1, S1) its first two earlier neighbours and their
 * sides (position N, whose labels are 0, where it has fewer), and EXTRA (0, 1 or 2) further
 * earlier neighbours to check one by one (a torus), each its own side O, the position C and
 * that position's side S.  Each position is a block of code with those as constants; the
 * search jumps from block to block.  The tables (masks, rotations, labels) stay data, so one
 * compiled search serves every puzzle of the same shape, order and sizes.
 */
#include <stdint.h>

#include "board.h"

typedef int64_t i64;
typedef uint64_t u64;

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* the tiles in use: one word in a register, or the words of used[] */
#if TW == 0
#define FREE(w) (~u0)
#define FLIP(t) (u0 ^= (u64)1 << (t))
#define HELD(p) ((u0 >> (p)) & 1)
#else
#define FREE(w) (~used[(w) & TW])
#define FLIP(t) (used[(t) >> 6] ^= (u64)1 << ((t) & 63))
#define HELD(p) ((used[(p) >> 6] >> ((p) & 63)) & 1)
#endif

/* the label placed position c needs on side s, and the one the placement just made needs: a
 * byte of the word kept per position (lp, lw, as labels has them), or through the placement */
#if PACKED
#define NEEDS(c, s) ((lp[c] >> (8 * (s))) & 255)
#define JUST(s) ((lw >> (8 * (s))) & 255)
#define KEEP(p) (lp[p] = lw)
#else
#define NEEDS(c, s) need[placed[c] * 4 + (s)]
#define JUST(s) need[o * 4 + (s)]
#define KEEP(p) ((void)0)
#endif

/* word w of key's tiles, the words of a key side by side */
#define MASK(key, w) cmasks[(key) * MW + (w)]

/* where the entry of bit b of word w of the key is: COMPACT, the key's entries one after another
 * (cstart[] where each word's first is, then the word's bits below b); else a slot per key and
 * tile, the key's slots from kb (with misfits base[key], else key * TURNS) */
#if COMPACT
#define KEY_BASE() ((void)0)
#define ENTRY() (cstart[key * MW + w] + __builtin_popcountll(MASK(key, w) & (((u64)1 << b) - 1)))
#else
#define KEY_BASE() (kb = BUDGETED ? base[key] : key * TURNS)
#define ENTRY() (kb + w * 64 + b)
#endif

/* the deepest placements so far, the fewest misfits among equally deep ones: kept out of line, as
 * they are rare, so that each position's block stays small */
__attribute__((noinline, cold, unused)) static i64 keep_deepest(i64 *best, const i64 *placed, const i64 *spent,
                                                                i64 depth) {
  best[0] = depth;
  best[1] = spent[depth];
  for (i64 j = 0; j < depth; j++) best[2 + j] = placed[j];
  return depth;
}

static inline uint32_t packed(const i64 *need, i64 o) {
  const i64 *q = need + o * 4;
  return (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
}

/* the case of position P where a call starts */
#define START(P, BEFORE, AFTER, KIND, PREV, D0, S0, D1, S1, EXTRA, O2, C2, S2, O3, C3, S3)         \
  case P:                                                                                          \
    goto next_##P;

/* the block of position P: its key from its earlier neighbours' labels (entered from the
 * position before), its next candidate (next), and where it goes back to when the one after
 * it has none left (back) */
#define BLOCK(P, BEFORE, AFTER, KIND, PREV, D0, S0, D1, S1, EXTRA, O2, C2, S2, O3, C3, S3)         \
  enter_##P : __attribute__((unused));                                                             \
  key = (KIND) + ((PREV) ? JUST(S0) : NEEDS(D0, S0)) * NL + NEEDS(D1, S1);                         \
  keys[P] = key;                                                                                   \
  KEY_BASE();                                                                                      \
  w = 0;                                                                                           \
  m = MASK(key, 0) & FREE(0);                                                                      \
  next_##P:                                                                                        \
  while (m == 0) {                                                                                 \
    if (likely(++w >= words[key])) {                                                               \
      if (BUDGETED && key < 2 * NKP && spent[P] + key / NKP < allow[P]) {                          \
        key += NKP; /* the next phase: one misfit more */                                          \
        keys[P] = key;                                                                             \
        KEY_BASE();                                                                                \
        w = 0;                                                                                     \
        m = MASK(key, 0) & FREE(0);                                                                \
        continue;                                                                                  \
      }                                                                                            \
      if (unlikely((P) <= floor)) {                                                                \
        i = (P);                                                                                   \
        w = 0;                                                                                     \
        ret = DONE;                                                                                \
        goto out;                                                                                  \
      }                                                                                            \
      goto back_##BEFORE;                                                                          \
    }                                                                                              \
    m = MASK(key, w) & FREE(w);                                                                    \
  }                                                                                                \
  if (unlikely(budget == 0)) {                                                                     \
    i = (P);                                                                                       \
    ret = PAUSED;                                                                                  \
    goto out;                                                                                      \
  }                                                                                                \
  {                                                                                                \
    int b = __builtin_ctzll(m);                                                                    \
    m &= m - 1;                                                                                    \
    tt = (w & TW) * 64 + b;                                                                        \
    if (TWINS) { /* a copy of an identical tile only once the copy before it is placed */          \
      i64 p = twin[tt];                                                                            \
      if (p >= 0 && !HELD(p)) goto next_##P;                                                       \
    }                                                                                              \
    if (QUOTA && qsum[P] + qsides[tt] < quota[P]) { /* the rest of the layer fall short too */     \
      w = (w / (TW + 1) + 1) * (TW + 1) - 1;                                                       \
      m = 0;                                                                                       \
      goto next_##P;                                                                               \
    }                                                                                              \
    budget--;                                                                                      \
    i64 at = ENTRY();                                                                              \
    o = tt * 4 + cturn[at];                                                                        \
    if (PACKED) lw = clabels[at];                                                                  \
  }                                                                                                \
  if (BUDGETED) { /* its phase and the further neighbours it misses, within the budget */          \
    i64 miss = key / NKP;                                                                          \
    if ((EXTRA) > 0 && shown[o * 4 + (O2)] != NEEDS(C2, S2)) miss++;                               \
    if ((EXTRA) > 1 && shown[o * 4 + (O3)] != NEEDS(C3, S3)) miss++;                               \
    if ((EXTRA) > 0 && spent[P] + miss > allow[P]) goto next_##P;                                  \
    spent[(P) + 1] = spent[P] + miss;                                                              \
  } else {                                                                                         \
    if ((EXTRA) > 0 && shown[o * 4 + (O2)] != NEEDS(C2, S2)) goto next_##P;                        \
    if ((EXTRA) > 1 && shown[o * 4 + (O3)] != NEEDS(C3, S3)) goto next_##P;                        \
  }                                                                                                \
  if (QUOTA) qsum[(P) + 1] = qsum[P] + qsides[tt];                                                 \
  placed[P] = o;                                                                                   \
  KEEP(P);                                                                                         \
  if (DEEPEST && unlikely((P) + 1 >= dbest && ((P) + 1 > dbest || spent[(P) + 1] < best[1])))      \
    dbest = keep_deepest(best, placed, spent, (P) + 1);                                            \
  nodes++;                                                                                         \
  if (unlikely(last == (P))) {                                                                     \
    i = (P);                                                                                       \
    ret = FOUND;                                                                                   \
    goto out;                                                                                      \
  }                                                                                                \
  FLIP(tt);                                                                                        \
  word[P] = w;                                                                                     \
  bits[P] = m;                                                                                     \
  goto enter_##AFTER;                                                                              \
  back_##P : __attribute__((unused));                                                              \
  tt = placed[P] >> 2;                                                                             \
  FLIP(tt);                                                                                        \
  w = word[P];                                                                                     \
  m = bits[P];                                                                                     \
  key = keys[P];                                                                                   \
  KEY_BASE();                                                                                      \
  goto next_##P;

i64 advance(const i64 *need, const i64 *shown, const u64 *cmasks, const i64 *cstart, const unsigned char *cturn,
            const uint32_t *clabels, const i64 *base, const i64 *words, const i64 *twin, const i64 *allow,
            const i64 *qsides, const i64 *quota, i64 *placed, i64 *word, u64 *bits, i64 *keys, u64 *used,
            i64 *spent, i64 *qsum, i64 *best, i64 *depth, i64 floor, i64 last, i64 budget, i64 *counts) {
  i64 given = budget, nodes = 0, w, key, o = 0, tt, ret, kb = 0, dbest = best[0];
  u64 m;
  uint32_t lw = 0;
#if TW == 0
  u64 u0 = used[0];
#endif
  i64 i = depth[0];
#if PACKED
  uint32_t lp[N + 1]; /* the labels each placed position needs, as labels has them */
  for (i64 j = 0; j < i; j++) lp[j] = packed(need, placed[j]);
  lp[N] = packed(need, placed[N]);
#endif
  (void)shown; /* read by the further checks of a torus only */
  (void)twin;  /* of identical tiles only */
  (void)clabels; /* where the labels fit a byte only */
  (void)lw;
  (void)allow; /* with a budget of misfits only */
  (void)spent;
  (void)dbest;
  (void)cstart; /* compact entries only */
  (void)base;   /* a slot per key and tile, with misfits, only */
  (void)kb;
  (void)qsides; /* with a quota only */
  (void)quota;
  (void)qsum;
  w = word[i];
  m = bits[i];
  key = keys[i];
  KEY_BASE();
  switch (i) {
    CELLS(START)
    default:
      return DONE;
  }
  CELLS(BLOCK)
back_none: /* below the first position: the floor is always there first */
enter_end: /* past the last position: last < N, so FOUND came first */
  i = last;
  w = 0;
  ret = DONE;
out:
  depth[0] = i;
  word[i] = ret == DONE ? 0 : w;
  bits[i] = ret == DONE ? 0 : m;
#if TW == 0
  used[0] = u0;
#endif
  counts[0] += given - budget;
  counts[1] += nodes;
  return ret;
}

#ifdef SATEDGE_PROFILE
/* the library that records its branches writes its profile when the training search ends */
extern void __gcov_dump(void);
void satedge_dump(void) { __gcov_dump(); }
#endif
