/* written by satedge.backtrack.native.header for one cell order and puzzle shape */
#define N 9
#define TW 0
#define NK 256
#define NL 8
#define MW 4
#define TURNS 256
#define COMPACT 0
#define PACKED 1
#define TWINS 1
#define BUDGETED 0
#define DEEPEST 0
#define QUOTA 0
#define NKP 256
#define DONE 0
#define FOUND 1
#define PAUSED 2
/* X(P, BEFORE, AFTER, KIND, PREV, D0, S0, D1, S1, EXTRA, O2, C2, S2, O3, C3, S3) */
#define CELLS(X) \
  X(0, none, 1, 0, 0, 9, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0) \
  X(1, 0, 2, 64, 1, 0, 1, 9, 0, 0, 0, 0, 0, 0, 0, 0) \
  X(2, 1, 3, 64, 1, 1, 1, 9, 0, 0, 0, 0, 0, 0, 0, 0) \
  X(3, 2, 4, 128, 0, 0, 2, 9, 0, 0, 0, 0, 0, 0, 0, 0) \
  X(4, 3, 5, 192, 1, 3, 1, 1, 2, 0, 0, 0, 0, 0, 0, 0) \
  X(5, 4, 6, 192, 1, 4, 1, 2, 2, 0, 0, 0, 0, 0, 0, 0) \
  X(6, 5, 7, 128, 0, 3, 2, 9, 0, 0, 0, 0, 0, 0, 0, 0) \
  X(7, 6, 8, 192, 1, 6, 1, 4, 2, 0, 0, 0, 0, 0, 0, 0) \
  X(8, 7, end, 192, 1, 7, 1, 5, 2, 0, 0, 0, 0, 0, 0, 0)
