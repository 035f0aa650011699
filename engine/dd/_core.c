/*
 * clubwhist double-dummy core: a generic trick-taking solver.
 *
 * A position is up to 4 seats holding cards of 4 suits (up to 16 ranks each, bit r of a
 * mask = rank index r, higher = stronger) plus "no-suit" cards (suit index 4: jokers at
 * no-trump that can never win), an optional trump suit and an optional column layout per
 * seat (Open Whist: only the last remaining card of each stack may be played).
 *
 * The question answered is boolean: "can the max side take at least T of the remaining
 * tricks?".  The exact value is found by a series of such zero-window tests (a binary search
 * on T); every test shares one transposition table.
 *
 * Speed comes from:
 *   - a transposition table probed at trick boundaries only, keyed on *relative* ranks (the
 *     owners of the remaining cards of each suit read from the top: the position is the same
 *     game whatever the absolute ranks), storing lower and upper bounds on the tricks the
 *     reference side takes from there; bounds stay valid for every target and every leader
 *     of the same deal, so the table is reused across the tests and across leaders.
 *     The owners string of each suit is updated card by card as tricks end, the suit
 *     lengths are kept packed, and the table starts small and grows; one signature's chain
 *     of entries is capped (the oldest chunk is recycled) so a probe never scans far, and a
 *     chunk of the chain keeps its entries' fields in arrays, tested all at once;
 *   - cut-offs at trick starts: quick tricks (top winners the leader can cash at once
 *     without being ruffed or overtaken, after drawing the opponents' trumps, then partner's
 *     reached through an entry or a ruff; small cards once the top cards have exhausted every
 *     other hand; at no trump, both hands' cards above the opponents' best cashed across
 *     an entry, K Q x opposite A x x: nt_cross_tricks; at trumps too once the leader has
 *     drawn the opponents' trumps or they hold none), sure trump tricks (trumps above all but the k best of the other side's,
 *     the two best trumps split between partners), and, for a side needing every trick, the
 *     count of leads the suits it controls can give (no trump) or an opponent's best card in
 *     every suit the leader holds, or for either side needing one trick a guarded trump
 *     beaten only by the trumps of the hand on its right (K x over the ace); in the trick,
 *     second or third hand's side settles at once when it surely wins the trick and then
 *     cashes what it needs.  A cut-off records only
 *     the ranks it needed, and none for a suit held by one hand (the lengths in the key
 *     already say who wins it): fewer ranks in W, more table hits;
 *   - pruning of equivalent cards: cards of one hand with no outstanding card between them,
 *     and, once a card has failed, the lower cards of its suit that lie under every rank its
 *     refutation needed;
 *   - move ordering: leads by how few cards the opponents can reply with (a small tree to
 *     refute), the card that last cut off with as many tricks left after another lead failed
 *     (a killer move; the one it replaced weighs less, and so do, outside column mode, the
 *     killers of one trick more or fewer left) counting about as much as nine cards
 *     fewer, then by card-play heuristics (cash winners, first when the second-best card is
 *     on the left; lead toward partner's best card; K from K Q against the ace; a singleton
 *     to partner's winner for a ruff; not a small card under one's own best card, not into
 *     the last player's honours, not a suit partner can neither follow nor ruff); after the
 *     lead (weighing up the card that last cut off at the same place in the trick, with the
 *     same suit led, after another failed), win cheaply with a card the next opponent cannot beat,
 *     second hand low unless a card can force out the third hand's best, third
 *     hand forces out the last player's best, ruff partner's card only when the next
 *     opponent would beat it, discard from long suits and keep guards; the table's best move
 *     and a capped history of cut-offs break ties (measured: the first move tried settles
 *     93% of the leads that are settled at all and 98-99.5% of the other nodes; the rest of
 *     the tree is nodes where every move fails, which no ordering shortens);
 *   - cheap nodes: a hand following suit (the commonest node), a hand void in the suit led
 *     and the leader of four classic hands get their moves from short paths of their own
 *     (gen_follow_suit, gen_void, gen_lead: the same moves in the same order as the general
 *     gen_moves), and a follower's single card left after pruning equivalent ones is not
 *     scored at all;
 *   - few zero-window tests: a solve on a used solver starts them from the previous result,
 *     and a fresh solve of a full bridge deal from a guess fitted on random deals
 *     (bridge_guess), then steps one trick at a time; a binary search takes about four.
 *
 * benchmarks/dd_core.py times this core against DDS (via endplay) on random bridge deals.
 *
 * In column mode (Open Whist) the relative-rank key is not valid (which cards are playable
 * depends on their identity), so the key holds the absolute remaining cards, one exact entry
 * a position in a 4-way table of 64 MB on huge pages (a probe is a cache miss; on small pages
 * a TLB miss too), and the rules above that assume a hand can play any card it holds are off.
 * Column mode has its own, read from what each hand has exposed (a hand's exposed cards stay
 * as they are until it plays, and a hand that holds e cards of a suit exposed follows that suit
 * e times before it can ruff it): quick tricks of exposed winners cashed one after another,
 * side suits first while other hands hold trumps, then trumps; those side-suit winners before
 * the side's sure trump tricks; a side needing every trick that loses the lead whatever it
 * leads, or needing one trick that some lead surely wins; second or third hand whose side needs
 * just this trick and surely wins it; a side that surely wins this trick with a card of the
 * suit led and needs no more than its best hand's sure trump tricks besides (at the trick start
 * and for second or third hand), tried cheapest first (column_start_cutoffs; the sure trump
 * counts are read from a table by the trumps still in the hands).  Two cards of a suit each
 * alone in its column with no card still out between them are equivalent.  The table's set is
 * chosen by a Zobrist hash kept card by card, the slot holds the position itself.  The table
 * sets of the next trick's positions are prefetched at its second card (or, past a cap, at its
 * last card but one); at the last card they are read, a card whose next position the table
 * already settles for the mover is played first, and a card whose next position is settled is
 * not played at all.
 *
 * The Python module validates positions before they reach this file; the constructor here
 * checks its arguments again so that a direct call with bad data raises, never crashes.
 */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#if defined(__SSE2__)
#include <emmintrin.h> /* chunk_matches */
#endif

/* On x86-64 the solver itself (everything up to the module's init) uses the popcnt instruction
 * for its bit counts: every x86-64 processor since 2008 or so has it, and the table lookups
 * that the portable build uses instead were measured at about 5% of the search's instructions
 * (valgrind).  The module's init checks that the processor has it and otherwise fails to
 * import, so that engine.dd falls back to its Python solver (and says so) rather than stop on
 * an illegal instruction. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define DD_POPCNT 1
#pragma GCC push_options
#pragma GCC target("popcnt")
#endif

#define NSUITS 5 /* 4 suits + the no-suit (joker) cards */
#define JOKER 4
#define MAXSEATS 4
#define MAXHAND 18 /* 17 a hand; 18 for a hand with spare cards (see `tricks`) */
#define MAXSTACKS 17

/* A table entry: a bound that holds for every position with the same suit lengths per seat
 * and leader (hashed into `check`) whose top depth[s] remaining cards of each suit have the
 * owners in own[s] (2 bits per card, top card in the highest bits).  Only the cards whose
 * rank decided a trick somewhere in the search ("winning ranks") need to match, so one entry
 * covers many positions (partition search).
 *
 * All entries sharing one hashed signature live in a chain of chunks (newest first); the
 * signature has no fixed number of patterns, so no fixed number of ways would do.  A chunk
 * keeps each field of its entries in an array of its own, so that a probe tests all of a
 * chunk's owner patterns at once, without a branch per entry (chunk_matches: the scan of a
 * chain was the costliest part of a probe, about a tenth of the whole search's work). */
#define CHUNK 6
#ifndef MAXCHAIN
#define MAXCHAIN 32 /* chunks in one signature's chain */
#endif
typedef struct {
    /* owners, suits 0-1 (own0) and 2-3 (own1), 32 bits a suit, masked to the depths; and the
     * bits of those that must match */
    uint64_t own0[CHUNK], own1[CHUNK], mask0[CHUNK], mask1[CHUNK];
    uint8_t depth[CHUNK][4];
    int8_t lb[CHUNK], ub[CHUNK]; /* bounds on future tricks of the reference side */
    int8_t bsuit[CHUNK];         /* best lead (suit, index from the top among remaining), -1 none */
    int8_t brel[CHUNK];
    int32_t next;
    int32_t n;
} Chunk;

typedef struct {
    uint64_t check; /* 0 = empty */
    uint64_t h1;    /* the slot hash, kept to rehash when the table grows */
    int32_t head;   /* first chunk of the chain, -1 none */
    int32_t pad;
} Bucket;

/* Column mode has no partial keys (which cards are playable depends on their identity), so
 * each position keeps one exact entry, in a table of fixed size: sets of WAYS slots, where a
 * new position replaces the entry with the fewest tricks left (the cheapest to find again).
 * The set is chosen by a Zobrist hash of the position (column_h1); the slot holds the position
 * itself, so a match is never a false one: the remaining cards of suits 0-3 (16 bits a suit)
 * in `check`, and in `jl` the remaining no-suit cards (bits 0-15), the leader plus one (bits
 * 16-23) and the tricks left (bits 24-31: fixed by the cards, kept for the replacement). */
typedef struct {
    uint64_t check;
    uint32_t jl; /* 0 = empty */
    int8_t lb, ub, bsuit, brel;
} Slot;
#define WAYS 4

typedef struct {
    PyObject_HEAD
    int nseats;
    int trump;     /* -1: no trump */
    int jfollow;   /* no-suit cards may be played while holding the led suit */
    int columns;   /* column mode */
    int hsize;     /* tricks to play */
    int tricks;    /* the constructor's `tricks` (0: the hands' common size), kept for deal() */
    int spare_dealt; /* some hand was dealt more cards than tricks to play (Solver_init) */
    int spare;     /* some hand holds more cards than the tricks left, now: set at each trick
                    * start (once no hand does, the rest is an ordinary position and every
                    * cut-off applies again) */
    int curR;      /* tricks left, including the one in progress (set by search) */
    uint16_t init[MAXSEATS][NSUITS];
    uint16_t hand[MAXSEATS][NSUITS];
    uint16_t gone[NSUITS]; /* cards of completed tricks */
    uint16_t deck[NSUITS]; /* every card dealt */
    uint8_t owner[NSUITS][16]; /* who was dealt each card (cards never change hands) */
    uint64_t lens[2];      /* suit lengths, 5 bits per (seat, suit): seats 0-1, seats 2-3 */
    uint32_t rown[4];      /* owners of the cards not in completed tricks (see owners) */
    int nstacks[MAXSEATS];
    int stlen[MAXSEATS][MAXSTACKS];
    uint8_t stack[MAXSEATS][MAXSTACKS][MAXHAND]; /* codes suit*16+rank, bottom..top */
    /* column mode, kept by play/unplay: each stack's top remaining card (index, -1 empty),
     * the stack each card lies in, and each seat's exposed cards */
    int8_t sttop[MAXSEATS][MAXSTACKS];
    uint8_t where[NSUITS][16];
    uint16_t expo[MAXSEATS][NSUITS];
    /* the trick in progress */
    int tcnt;
    int tsuit[MAXSEATS], trank[MAXSEATS], tseat[MAXSEATS];
    int twin[MAXSEATS + 1], tled[MAXSEATS + 1]; /* winner index and suit led after k cards */
    int side[MAXSEATS];  /* 1 = max side */
    int refmask;         /* seats of the side whose tricks the table bounds count; 0 = unset */
    int curmask;
    Bucket *tt;     /* open addressing on the signature */
    Slot *ctab;     /* column mode's table instead (see Slot) */
    void *ctab_raw; /* its allocation (ctab is aligned within it) */
    uint64_t cmask; /* sets in ctab - 1 */
    uint16_t *csure; /* column mode, 4 seats, trumps: sure trump counts (column_sure_counts) */
    /* column mode: Zobrist values of each card and leader (column_h1), and the xor of those of
     * the cards in the hands (kept by expose_after and cover_again) */
    uint64_t zcard[NSUITS][16], zlead[MAXSEATS], zhand;
    uint16_t cbottom[NSUITS]; /* column mode: the cards dealt at the bottom of their stacks */
    uint16_t inhand[NSUITS];  /* column mode: the cards in the hands (kept as zhand is) */
    uint64_t ttmask;
    uint64_t tused;
    Chunk *pool;
    int32_t npool, pused;
    int maxbits;     /* the bucket array grows up to 2**maxbits slots ... */
    int32_t maxpool; /* ... and the pool up to this many chunks; then the table is cleared */
    long long nodes;
    long long trick_nodes; /* tricks completed in the search: what DDS counts as its nodes */
    long long limit; /* stop a search when nodes reach this (LLONG_MAX when there is no limit,
                      * so that a node tests one comparison) */
    int aborted;     /* the search stopped at the limit: its answer means nothing */
    int hist[MAXSEATS][NSUITS][16];
    int off; /* features switched off (testing) */
    int last_value, last_mask; /* the previous solve's result and side (a first guess) */
    /* the lead that last cut off with each number of tricks left (suit*16+rank+1, 0 none):
     * weighted above the table's best move, as it was measured to cut more often (only a lead
     * that cut off after an earlier one failed; see KILLER_BONUS); one per seat made the search
     * larger, and so did one per side as a bonus (+0.6% on 200 deals; in column mode, the
     * killer then first, one per seat or per side: +9.7% and +2.4% nodes on the Open Whist par
     * boards) */
    uint8_t killer[MAXHAND + 1];
    /* the killer lead it replaced (see KILLER2_BONUS), and for the later cards of
     * a trick, by tricks left, place in the trick and suit led (+1: -1 for none), the card that
     * last cut off after an earlier card failed (see FOLLOW_KILLER_BONUS) */
    uint8_t killer2[MAXHAND + 1];
    uint8_t fkiller[MAXHAND + 1][MAXSEATS][NSUITS + 1];
    /* column mode, set by second hand before each of its cards: the next trick's table sets
     * after that card were prefetched there (prefetch_three_ahead), so third hand need not */
    int ahead3;
} Solver;

/* Search shortcuts the `off` argument of the constructor switches off, for tests only (the
 * test with every one off checks that each changes the speed, never the value). */
enum {
    /* quick tricks */
    OFF_QUICK = 1,
    /* sure trump tricks */
    OFF_SURE_TRUMPS = 2,
    /* equivalent-card pruning */
    OFF_EQUIVALENT = 4,
    /* partial table keys (every entry matches the whole position) */
    OFF_PARTIAL_KEYS = 8,
    /* partner's quick tricks */
    OFF_PARTNER_QUICK = 16,
    /* skipping cards below every rank a failed card's proof needed */
    OFF_SKIP_LOWER = 32,
    /* two sure trump tricks from the two best trumps split between partners */
    OFF_SPLIT_TRUMPS = 64,
    /* a side needing every trick while the opponents hold the best card of each suit
     * the leader holds */
    OFF_LEAD_LOST = 128,
    /* at trumps, the leader's winners and then partner's reached through an entry */
    OFF_TRUMP_ENTRY = 256,
    /* the leader's small cards of a suit once its top cards have exhausted everybody
     * else's */
    OFF_LONG_CARDS = 512,
    /* second hand's side needing one trick that it surely wins now */
    OFF_SECOND_HAND = 1024,
    /* with no trump in play, a side needing every trick whose controlled suits cannot
     * give that many leads */
    OFF_LEAD_CAPACITY = 2048,
    /* partner's ruff as an entry in the quick tricks */
    OFF_RUFF_ENTRY = 4096,
    /* a hand's sure trumps counted against all but the k best of the other side's */
    OFF_TRUMPS_BUT_K = 8192,
    /* the leader's side-suit winners plus its side's sure trump tricks */
    OFF_CASH_THEN_TRUMPS = 16384,
    /* second hand's side needing more than one trick: the winner of this one cashes its
     * top cards next */
    OFF_SECOND_CASH = 32768,
    /* third hand's side surely winning this trick (and cashing what it needs next) */
    OFF_THIRD_HAND = 65536,
    /* a hand with spare cards skipping the drops that following low is as good as */
    OFF_DROP_DOMINATED = 131072,
    /* column mode: the side on lead needing one trick that a lead surely wins */
    OFF_LEAD_WON = 262144,
    /* column mode: a side winning this trick with a card of the suit led, then its sure
     * trumps */
    OFF_TRICK_THEN_TRUMPS = 524288,
    /* a trump beaten only by trumps of the hand on its right, guarded (trump_over_cutoff) */
    OFF_TRUMP_OVER = 1048576,
    OFF_ALL = 2097151
};

/* Bit counts of card masks (at most 16 bits): the popcnt instruction where the solver is built
 * for it (DD_POPCNT, above), else two lookups in a 256-entry table. */
#if !(defined(__POPCNT__) || defined(DD_POPCNT))
static const uint8_t POP8[256] = {
    0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5,
    1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5, 2, 3, 3, 4, 3, 4, 4, 5, 3, 4, 4, 5, 4, 5, 5, 6,
    1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5, 2, 3, 3, 4, 3, 4, 4, 5, 3, 4, 4, 5, 4, 5, 5, 6,
    2, 3, 3, 4, 3, 4, 4, 5, 3, 4, 4, 5, 4, 5, 5, 6, 3, 4, 4, 5, 4, 5, 5, 6, 4, 5, 5, 6, 5, 6, 6, 7,
    1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5, 2, 3, 3, 4, 3, 4, 4, 5, 3, 4, 4, 5, 4, 5, 5, 6,
    2, 3, 3, 4, 3, 4, 4, 5, 3, 4, 4, 5, 4, 5, 5, 6, 3, 4, 4, 5, 4, 5, 5, 6, 4, 5, 5, 6, 5, 6, 6, 7,
    2, 3, 3, 4, 3, 4, 4, 5, 3, 4, 4, 5, 4, 5, 5, 6, 3, 4, 4, 5, 4, 5, 5, 6, 4, 5, 5, 6, 5, 6, 6, 7,
    3, 4, 4, 5, 4, 5, 5, 6, 4, 5, 5, 6, 5, 6, 6, 7, 4, 5, 5, 6, 5, 6, 6, 7, 5, 6, 6, 7, 6, 7, 7, 8,
};
#endif
static inline int popc(unsigned x) {
#if defined(__POPCNT__) || defined(DD_POPCNT)
    return __builtin_popcount(x);
#else
    return POP8[x & 255] + POP8[(x >> 8) & 255];
#endif
}
static inline int hibit(unsigned x) { return 31 - __builtin_clz(x); }

/* ---- table ------------------------------------------------------------------------- */

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static inline int len_shift(int seat, int su) { return 5 * ((seat & 1) * 5 + su); }

/* Owners of the remaining cards of each suit, top card in bits 31-30 (at a trick start,
 * when the remaining cards are exactly those not in completed tricks). */
static void owners(const Solver *s, uint32_t own[4], uint16_t rem[NSUITS]) {
    rem[JOKER] = s->deck[JOKER] & (uint16_t)~s->gone[JOKER];
    for (int su = 0; su < 4; su++) {
        unsigned m = s->deck[su] & ~(unsigned)s->gone[su];
        rem[su] = (uint16_t)m;
        uint32_t o = 0;
        int sh = 30;
        while (m) {
            int k = hibit(m);
            m &= ~(1u << k);
            o |= (uint32_t)s->owner[su][k] << sh;
            sh -= 2;
        }
        own[su] = o;
    }
}

static void hash_words(const uint32_t *w, int n, uint64_t *h1, uint64_t *h2) {
    uint64_t a = 0x9e3779b97f4a7c15ULL, b = 0x632be59bd9b4e019ULL;
    for (int i = 0; i < n; i++) {
        a = mix64(a ^ (w[i] + 0x1000193ULL * (uint64_t)(i + 1)));
        b = mix64(b + ((uint64_t)w[i] << 17) + (uint64_t)(i * 7919 + 1));
    }
    *h1 = a;
    *h2 = b | 1; /* never 0: 0 marks an empty slot */
}

/* The hashed part of the key: suit lengths per seat and the leader; in column mode the
 * whole absolute position (identities decide what is playable). */
static void key_hash(const Solver *s, int leader, int R, const uint32_t own[4],
                     const uint16_t rem[NSUITS], uint64_t *h1, uint64_t *h2) {
    /* the tricks left too: with spare cards the lengths alone need not tell them */
    uint64_t a = s->lens[0] | ((uint64_t)leader << 52) | ((uint64_t)R << 54), b = s->lens[1];
    if (!s->columns) {
        /* (a, b) is the key itself: two independent mixes of it give slot and check */
        *h1 = mix64(a ^ mix64(b + 0x9e3779b97f4a7c15ULL));
        *h2 = mix64(b ^ mix64(a + 0x632be59bd9b4e019ULL)) | 1;
        return;
    }
    uint32_t w[20];
    int n = 0;
    w[n++] = (uint32_t)a;
    w[n++] = (uint32_t)(a >> 32);
    w[n++] = (uint32_t)b;
    w[n++] = (uint32_t)(b >> 32);
    {
        for (int su = 0; su < NSUITS; su++) {
            w[n++] = rem[su];
            if (su < 4) w[n++] = own[su];
        }
        for (int p = 0; p < s->nseats; p++) w[n++] = s->hand[p][JOKER];
    }
    hash_words(w, n, h1, h2);
}

static inline uint32_t top_mask(int d) { return d == 0 ? 0u : (0xffffffffu << (32 - 2 * d)); }

static inline void pack_own(const uint32_t own[4], uint64_t out[2]) {
    out[0] = ((uint64_t)own[0] << 32) | own[1];
    out[1] = ((uint64_t)own[2] << 32) | own[3];
}

/* Bit i set: entry i of the chunk matches the owners own (packed as pack_own does).
 *
 * Where SSE2 is there (every x86-64 processor: the compiler defines __SSE2__ without being
 * asked), two entries at a time in 128-bit registers; SSE2 has no 64-bit compare, so an
 * entry matches when both 32-bit halves of its masked difference are zero (the compare of
 * halves, ANDed with itself with the halves swapped), and movemask_pd takes each entry's
 * sign bit.  The same bits as the plain loop below (the nodes of benchmarks.dd_nodes are the
 * same); measured with valgrind on 30 random deals: 4.0% fewer instructions in all (the
 * plain loop was about a twentieth of the search's), the table probe's scan being the commonest
 * place this runs. */
static inline unsigned chunk_matches(const Chunk *ch, const uint64_t own[2]) {
    unsigned hits = 0;
#if defined(__SSE2__) && CHUNK % 2 == 0
    const __m128i o0 = _mm_set1_epi64x((long long)own[0]), o1 = _mm_set1_epi64x((long long)own[1]);
    const __m128i zero = _mm_setzero_si128();
    for (int i = 0; i < CHUNK; i += 2) {
        __m128i a = _mm_xor_si128(_mm_loadu_si128((const __m128i *)&ch->own0[i]), o0);
        __m128i b = _mm_xor_si128(_mm_loadu_si128((const __m128i *)&ch->own1[i]), o1);
        a = _mm_and_si128(a, _mm_loadu_si128((const __m128i *)&ch->mask0[i]));
        b = _mm_and_si128(b, _mm_loadu_si128((const __m128i *)&ch->mask1[i]));
        __m128i z = _mm_cmpeq_epi32(_mm_or_si128(a, b), zero);
        z = _mm_and_si128(z, _mm_shuffle_epi32(z, _MM_SHUFFLE(2, 3, 0, 1)));
        hits |= (unsigned)_mm_movemask_pd(_mm_castsi128_pd(z)) << i;
    }
#else
    for (int i = 0; i < CHUNK; i++) {
        uint64_t bad = ((ch->own0[i] ^ own[0]) & ch->mask0[i]) | ((ch->own1[i] ^ own[1]) & ch->mask1[i]);
        hits |= (unsigned)(bad == 0) << i;
    }
#endif
    return hits & ((1u << ch->n) - 1); /* the slots past n hold nothing yet */
}

/* Take card (su, r) out of the relative owner string of its suit when its trick is complete:
 * the owners of the cards below it move up one place. */
static inline void drop_relative(Solver *s, int su, int r) {
    unsigned rem = s->deck[su] & ~(unsigned)s->gone[su];
    int i = popc(rem >> (r + 1)); /* place from the top */
    uint32_t o = s->rown[su];
    /* the owners above it stay, the ones below move up over it (no branch: i may be 0) */
    uint32_t hi = (uint32_t)(0xffffffffull << (32 - 2 * i));
    s->rown[su] = (o & hi) | ((o << 2) & ~hi);
}

/* ---- rules ------------------------------------------------------------------------- */

/* Cards the seat may play now (column tops in column mode), before the follow rule. */
static void available(const Solver *s, int seat, uint16_t av[NSUITS]) {
    /* column mode: the exposed cards, kept up to date by play/unplay */
    memcpy(av, s->columns ? s->expo[seat] : s->hand[seat], sizeof(uint16_t) * NSUITS);
}

/* Suit led so far: the first card of the trick that is not a no-suit card; -1 if none. */
static inline int led_suit(const Solver *s) {
    for (int i = 0; i < s->tcnt; i++)
        if (s->tsuit[i] != JOKER) return s->tsuit[i];
    return -1;
}

/* The suit led and the index of the card winning the trick, kept up to date card by card
 * by play() (the search's hot path). */
static inline int cur_winner(const Solver *s) { return s->twin[s->tcnt]; }
static inline int cur_led(const Solver *s) { return s->tled[s->tcnt]; }

static inline int seat_len(const Solver *s, int seat, int su);
static inline int hand_len(const Solver *s, int seat);

/* Cards a hand may put aside now without running short of cards for the tricks left (its
 * spare cards; 0 unless the solver was given `tricks`). */
static inline int spare_of(const Solver *s, int seat) {
    return s->spare ? hand_len(s, seat) - s->curR : 0;
}

/* The legal cards; *drop is set to the suit led when the seat may also play off-suit by
 * putting all its cards of that suit aside as spare cards (see Solver_init). */
static inline __attribute__((always_inline)) void legal(const Solver *s, int seat,
                                                       uint16_t lg[NSUITS], int *drop) {
    uint16_t av[NSUITS];
    available(s, seat, av);
    int led = cur_led(s);
    *drop = -1;
    if (led >= 0 && av[led] && s->spare && popc(s->hand[seat][led]) <= spare_of(s, seat)) {
        for (int su = 0; su < NSUITS; su++) lg[su] = av[su];
        *drop = led;
        return;
    }
    if (led >= 0 && av[led]) {
        for (int su = 0; su < NSUITS; su++) lg[su] = 0;
        lg[led] = av[led];
        if (s->jfollow) lg[JOKER] = av[JOKER];
        return;
    }
    for (int su = 0; su < NSUITS; su++) lg[su] = av[su];
}

/* Index in the trick of the card winning it so far (tcnt >= 1). */
static int trick_winner_index(const Solver *s) {
    int led = led_suit(s);
    if (led < 0) return 0; /* only no-suit cards: the leader keeps it */
    int best = -1;
    for (int i = 0; i < s->tcnt; i++) {
        int su = s->tsuit[i];
        if (su == JOKER) continue;
        if (best < 0) { best = i; continue; }
        int bs = s->tsuit[best];
        if (su == bs) {
            if (s->trank[i] > s->trank[best]) best = i;
        } else if (su == s->trump) {
            best = i;
        }
    }
    return best;
}

/* ---- cut-offs ------------------------------------------------------------------------ */

/* Tricks the leader can cash at once: top cards above every other remaining card of the
 * suit (so partner cannot overtake), limited by the length of each opponent who could ruff.
 * The cards counted go into W (their ranks are what the cut-off relies on). */
static inline int seat_len(const Solver *s, int seat, int su) {
    return (int)((s->lens[seat >> 1] >> len_shift(seat, su)) & 31);
}

/* The times a seat must follow suit before it may ruff: its length, less what it can put
 * aside as spare cards (it follows until its length is down to its spare count). */
static inline int follow_len(const Solver *s, int seat, int su) {
    int len = seat_len(s, seat, su);
    if (!s->spare) return len;
    int sp = spare_of(s, seat);
    return len > sp ? len - sp : 0;
}

static inline int hand_len(const Solver *s, int seat) {
    int n = 0;
    for (int su = 0; su < NSUITS; su++) n += seat_len(s, seat, su);
    return n;
}

/* May seat p, yet to play to this trick, put its cards of suit su aside (spare cards) and
 * play another card, say a trump?  (Spare counts come from the lengths and the tricks left,
 * both in the key.) */
static inline int can_drop(const Solver *s, int p, int su) {
    return s->spare && s->hand[p][su] && popc(s->hand[p][su]) <= spare_of(s, p);
}

/* A count of quick tricks in a trump contract assumes the leader keeps the lead.  Partner,
 * void in a side suit the leader cashes and holding nothing but trumps, would have to ruff
 * and take the lead away: make sure partner always has another card to play (trumps when
 * trumps are led, any other card otherwise).  Otherwise count the top trumps alone. */
static int partner_may_overtake(const Solver *s, int leader, const uint16_t W[4]) {
    if (s->trump < 0 || s->nseats != 4) return 0;
    int pa = (leader + 2) % 4;
    int pt = seat_len(s, pa, s->trump);
    if (!pt) return 0;
    int R = 0;
    for (int su = 0; su < NSUITS; su++) R += seat_len(s, pa, su);
    int qt = popc(W[s->trump]), qs = 0;
    for (int su = 0; su < 4; su++)
        if (su != s->trump) qs += popc(W[su]);
    return R - pt < qs + (qt > pt ? qt - pt : 0);
}

static int quick_tricks_core(const Solver *s, int leader, uint16_t W[4], int *first,
                             int draw);

static int quick_tricks(const Solver *s, int leader, uint16_t W[4], int *first, int draw) {
    int q = quick_tricks_core(s, leader, W, first, draw);
    if (q && partner_may_overtake(s, leader, W)) {
        for (int su = 0; su < 4; su++)
            if (su != s->trump) W[su] = 0;
        *first = -1;
        return popc(W[s->trump]);
    }
    return q;
}

static int quick_tricks_core(const Solver *s, int leader, uint16_t W[4], int *first,
                             int draw) {
    int q = 0;
    *first = -1;
    int ls = s->side[leader];
    int trump = s->trump;
    unsigned ruffers = 0; /* opponents holding trumps */
    if (trump >= 0)
        for (int p = 0; p < s->nseats; p++)
            if (s->side[p] != ls && s->hand[p][trump]) ruffers |= 1u << p;
    /* (jokers that may be played while holding the suit led would let a hand keep its
     * cards of the suit; spare cards: see follow_len) */
    int long_ok = !(s->off & OFF_LONG_CARDS);
    if (long_ok && s->jfollow)
        for (int p = 0; p < s->nseats; p++)
            if (p != leader && s->hand[p][JOKER]) long_ok = 0;
    unsigned tops[4];
    int free_tricks = 0; /* the same tricks once the opponents' trumps are drawn */
    for (int su = 0; su < 4; su++) {
        W[su] = 0;
        tops[su] = 0;
        unsigned mine = s->hand[leader][su];
        if (!mine) continue;
        /* at a trick start the cards not in completed tricks are all in hands */
        unsigned others = s->deck[su] & ~(unsigned)s->gone[su] & ~mine;
        unsigned top = others ? mine & ~((2u << hibit(others)) - 1) : mine;
        int w = popc(top);
        if (!w) continue;
        if (w < popc(mine) && long_ok && (su == trump || !ruffers)) {
            /* No other hand holds more cards of the suit than the leader's top cards: after
             * those are cashed everybody else is void, so the leader's small cards win too
             * (nobody can ruff them: su is trumps or the opponents hold none).  The rule
             * needs the owners of the top cards (W) and the lengths (in the key). */
            int most = 0;
            for (int p = 0; p < s->nseats; p++)
                if (p != leader && seat_len(s, p, su) > most) most = seat_len(s, p, su);
            if (most <= w) {
                top = mine;
                w = popc(top);
            }
        }
        tops[su] = top;
        free_tricks += w;
        if (ruffers && su != trump) {
            for (int p = 0; p < s->nseats; p++) {
                if (!(ruffers >> p & 1)) continue;
                int len = follow_len(s, p, su);
                if (len < w) w = len;
            }
        }
        /* the w highest of the top cards */
        unsigned used = 0;
        for (int k = 0; k < w; k++) {
            int r = hibit(top);
            used |= 1u << r;
            top &= ~(1u << r);
        }
        W[su] = (uint16_t)used;
        q += w;
    }
    if (draw && ruffers && free_tricks > q) {
        /* The leader's top trumps, as many as the longest trump holding among the
         * opponents, draw all their trumps; then every top card cashes.  A cut-off from this
         * count must keep those trumps first (see trim_quick_w). */
        int longest = 0;
        for (int p = 0; p < s->nseats; p++)
            if ((ruffers >> p & 1) && seat_len(s, p, trump) > longest)
                longest = seat_len(s, p, trump);
        if (popc(tops[trump]) >= longest) {
            for (int su = 0; su < 4; su++) W[su] = (uint16_t)tops[su];
            *first = trump;
            return free_tricks;
        }
    }
    return q;
}

/* Column mode (Open Whist): tricks the leader takes by cashing exposed cards that are above
 * every other remaining card of their suit, one after another (each cashed card may expose
 * the next one of its stack).  Nobody can beat such a card, so partner cannot overtake it
 * either; only a ruff could.  When no other hand holds a trump, every such card counts, in
 * any order (cashing only exposes more cards).  Otherwise a hand holding trumps (partner too:
 * it might have to ruff, taking the lead away) can ruff a side-suit card only when it has no
 * card of that suit exposed; a hand with e cards of the suit exposed now follows suit at
 * least e times while the leader cashes side suits only (each trick it plays a card of the
 * suit led, which covers none of its other cards).  So the leader first cashes side-suit
 * winners, no more of a suit than every other trump holder has exposed cards of it, then
 * its trump winners (trumps cannot be ruffed; the others' trumps are all still out, and no
 * higher).  (Measured on the Open Whist par boards: 1% fewer nodes than counting no side
 * suit while another hand holds a trump.) */
static int column_quick_tricks(const Solver *s, int leader, int side_only) {
    int trump = s->trump;
    /* side-suit cards the leader may cash, suit by suit (16: no limit) */
    int room[4] = {16, 16, 16, 16};
    if (trump >= 0)
        for (int p = 0; p < s->nseats; p++)
            if (p != leader && s->hand[p][trump])
                for (int su = 0; su < 4; su++) {
                    int e = su == trump ? 16 : popc(s->expo[p][su]);
                    if (e < room[su]) room[su] = e;
                }
    int mixed = !side_only && room[0] == 16 && room[1] == 16 && room[2] == 16 && room[3] == 16;
    /* the leader's exposed cards and stack tops, as cashing changes them */
    uint16_t ex[NSUITS];
    int8_t top[MAXSTACKS];
    memcpy(ex, s->expo[leader], sizeof(ex));
    memcpy(top, s->sttop[leader], sizeof(top));
    int q = 0;
    /* pass 0: side suits, then pass 1: trumps (both at once when nobody else holds trumps;
     * side_only: pass 0 alone, see sure_trump_cutoff) */
    for (int pass = mixed ? 1 : 0; pass < (side_only ? 1 : 2); pass++) {
        int found = 1;
        while (found) {
            found = 0;
            for (int su = 0; su < 4 && !found; su++) {
                if (!ex[su] || (!mixed && (pass == 0) == (su == trump)) || !room[su]) continue;
                int r = hibit(ex[su]);
                unsigned others =
                    s->deck[su] & ~(unsigned)s->gone[su] & ~(unsigned)s->hand[leader][su];
                if (others >> r) continue;
                int k = s->where[su][r];
                ex[su] &= (uint16_t)~(1u << r);
                if (--top[k] >= 0) {
                    int c = s->stack[leader][k][top[k]];
                    ex[c >> 4] |= (uint16_t)(1u << (c & 15));
                }
                if (room[su] < 16) room[su]--;
                q++;
                found = 1;
            }
        }
    }
    return q;
}

/* Column mode: the best card the seats of one side can play to a trick in suit su (-1: none);
 * a seat's exposed cards stay as they are until it plays, so what is exposed now is what it
 * can play when its turn comes. */
static inline int column_side_best(const Solver *s, int sd, int su) {
    unsigned m = 0;
    for (int p = 0; p < s->nseats; p++)
        if (s->side[p] == sd) m |= s->expo[p][su];
    return m ? hibit(m) : -1;
}

/* Column mode: may seat p ruff a trick led in su (none of su exposed, a trump exposed)? */
static inline int column_may_ruff(const Solver *s, int p, int su) {
    return s->trump >= 0 && su != s->trump && !s->expo[p][su] && s->expo[p][s->trump];
}

/* Column mode, the side on lead needing every trick left: does it lose this one whatever is
 * led?  For each suit the leader has exposed (what it can lead), the other side either holds
 * an exposed card of the suit above every card of it that the leader's side has exposed
 * (that card may be played, as following suit, and nothing of the leader's side beats it) or
 * has a hand that can ruff; and no other hand of the leader's side can ruff (exposed: no card
 * of the suit, a trump).  Returns the other side's result, or -1. */
static int column_lead_lost(const Solver *s, int seat) {
    int me = s->side[seat];
    if (s->expo[seat][JOKER]) return -1;
    for (int su = 0; su < 4; su++) {
        if (!s->expo[seat][su]) continue;
        int theirs = column_side_best(s, !me, su), ours = column_side_best(s, me, su);
        int beaten = theirs > ours;
        for (int p = 0; p < s->nseats; p++) {
            if (s->side[p] == me) {
                if (p != seat && column_may_ruff(s, p, su)) return -1;
            } else if (column_may_ruff(s, p, su)) {
                beaten = 1;
            }
        }
        if (!beaten) return -1;
    }
    return !me;
}

/* Column mode, the side on lead needing one trick: does it win this one with some lead?  A
 * card the leader has exposed wins if, with the best exposed card of its suit of the other
 * hands of the side (each follows suit with one of its exposed cards, and may pick the best),
 * it beats every exposed card of the suit in the other side's hands, and no hand of the other
 * side can ruff (each holding an exposed card of the suit must follow with one; a hand with
 * none may play any exposed card, so it must have no exposed trump); or another hand of the
 * side, with no exposed card of the suit, can ruff above every exposed trump of the other
 * side's hands that may ruff (those with an exposed card of the suit must follow suit).
 * Cards under the exposed ones cannot be played to this trick, however high.  (Measured on
 * the Open Whist par boards: 3% fewer nodes.)  Returns the side's result, or -1. */
static int column_lead_won(const Solver *s, int seat) {
    int me = s->side[seat];
    for (int su = 0; su < 4; su++) {
        if (!s->expo[seat][su]) continue;
        int ours = column_side_best(s, me, su), won = 1;
        for (int p = 0; p < s->nseats && won; p++) {
            if (s->side[p] == me) continue;
            unsigned e = s->expo[p][su];
            if (e ? (int)hibit(e) > ours : column_may_ruff(s, p, su)) won = 0;
        }
        if (won) return me;
        if (s->trump < 0 || su == s->trump) continue;
        /* or partner, with no exposed card of the suit, ruffs above every trump the other
         * side's hands without one may play */
        int ruff = -1, over = -1;
        for (int p = 0; p < s->nseats; p++) {
            if (s->expo[p][su] || !s->expo[p][s->trump]) continue;
            int t = hibit(s->expo[p][s->trump]);
            if (s->side[p] != me) {
                if (t > over) over = t;
            } else if (p != seat && t > ruff) {
                ruff = t;
            }
        }
        if (ruff > over) return me;
    }
    return -1;
}

/* Column mode, second or third hand of four (tcnt 1 or 2) whose side needs only this trick:
 * does the side surely win it?  Second hand: its side's best exposed card of the suit led is
 * above the card led and above the third hand's exposed cards of the suit, and the third hand
 * cannot ruff; or the third hand must follow suit while second or fourth hand can ruff.
 * Third hand: partner's card wins and the last hand can neither beat it nor ruff, or third
 * hand has an exposed card above the winning card and the last hand's, which cannot ruff.
 * (Exposed cards only, which stay as they are until their seat plays.)  plain: only a win with
 * a card of the suit led (no ruff) counts.  Returns the side's result, or -1. */
static int column_trick_won(const Solver *s, int seat, int plain) {
    int L = cur_led(s), me = s->side[seat];
    int w = cur_winner(s), ws = s->tsuit[w], wr = s->trank[w];
    int nx = (seat + 1) & 3;
    unsigned ln = s->expo[nx][L];
    int next_ruffs = column_may_ruff(s, nx, L);
    if (s->tcnt == 1) {
        int fourth = (seat + 2) & 3;
        unsigned ours = s->expo[seat][L] | s->expo[fourth][L];
        int hi = ours ? hibit(ours) : -1;
        if (ws == L && !next_ruffs && hi > wr && (!ln || hi > hibit(ln))) return me;
        if (!plain && ws == L && ln &&
            (column_may_ruff(s, seat, L) || column_may_ruff(s, fourth, L)))
            return me;
        return -1;
    }
    if (ws != L || next_ruffs) return -1;
    if (s->side[s->tseat[w]] == me) return (ln >> (wr + 1)) ? -1 : me;
    unsigned m = s->expo[seat][L];
    int hi = m ? hibit(m) : -1;
    return hi > wr && (!ln || hi > hibit(ln)) ? me : -1;
}

/* Cards a hand can throw while the other hand of its side cashes winners: its jokers and its
 * side-suit cards other than the winners counted for it in W (never a trump: a trump thrown
 * could have been a trick, and one played might have to ruff). */
static inline int throwable(const Solver *s, int seat, const uint16_t W[4]) {
    int n = popc(s->hand[seat][JOKER]);
    for (int su = 0; su < 4; su++)
        if (su != s->trump) n += popc(s->hand[seat][su] & ~(unsigned)W[su]);
    return n;
}

/* side_quick_tricks (below) past the leader's own count q (W): the better of that and, when
 * the leader can reach partner's hand with a safe winner there, partner cashing partner's. */
static int partner_quick_tricks(const Solver *s, int leader, uint16_t W[4], int *entry,
                                int *extra, int q) {
    int pa = (leader + 2) % 4;
    uint16_t PW[4];
    int pfirst;
    /* partner cashes after an entry trick that an opponent might ruff: no trump drawing */
    int pq = quick_tricks(s, pa, PW, &pfirst, 0);
    int tr = s->trump;
    if (tr >= 0 && *entry < 0 && !s->spare && !(s->off & OFF_RUFF_ENTRY) &&
        seat_len(s, pa, tr) > popc(W[tr]) + popc(PW[tr])) {
        /* At trumps partner's ruff is an entry too: after cashing its winners the leader
         * leads a suit partner is void in, and partner ruffs with a trump that is not one
         * of its winners (it holds more trumps than the trump leads it follows and its
         * trump winners), while every opponent holding trumps must follow that suit (more
         * cards of it than the leader cashes there); then partner cashes its winners.  As
         * in the line below, partner throws from its other non-trumps during the leader's
         * winners, and the leader from its non-trumps (but that card) during partner's.
         * The ruff needs no rank, only lengths (in the key): it is an extra trick. */
        int pnon = throwable(s, pa, PW), lnon = throwable(s, leader, W);
        if (pnon >= q && lnon - 1 >= pq)
            for (int su = 0; su < 4; su++) {
                if (su == tr || seat_len(s, pa, su) || seat_len(s, leader, su) <= popc(W[su]))
                    continue;
                int ok = 1;
                for (int o = 0; o < 4 && ok; o++)
                    if (s->side[o] != s->side[leader] && s->hand[o][tr] &&
                        seat_len(s, o, su) < popc(W[su]) + 1)
                        ok = 0;
                if (!ok) continue;
                for (int k = 0; k < 4; k++) W[k] |= PW[k];
                *extra = 1;
                return q + 1 + pq;
            }
    }
    if (!pq) return q;
    if (q && s->trump < 0) {
        /* At no-trump nobody can ruff: the leader cashes its own winners (partner follows or discards
         * from its other cards), then leads a small card of a suit where partner holds the
         * top cards and partner cashes its winners.  Suits with the leader's winners and
         * suits with partner's are different suits (each set is above all other cards). */
        int R = 0;
        for (int su = 0; su < NSUITS; su++) R += popc(s->hand[leader][su]);
        if (q + pq <= R)
            for (int su = 0; su < 4; su++)
                if (PW[su] && s->hand[leader][su]) {
                    for (int k = 0; k < 4; k++) W[k] |= PW[k];
                    *entry = su;
                    return q + pq;
                }
    }
    if (q && s->trump >= 0 && *entry < 0 && !s->spare && !(s->off & OFF_TRUMP_ENTRY)) {
        /* At trumps the same line (the leader cashes its winners, then reaches partner's)
         * needs more care, as a hand void in the suit led might have to ruff or throw a
         * winner.  Partner follows the leader's suits below the leader's winners (they are
         * above all other cards) and, when void, throws a card that is neither a trump nor
         * one of its winners: it must hold at least q of those.  The leader, after its
         * winners and the entry card, must still hold a non-trump for each of partner's
         * winners, so it never has to ruff them.  The opponents who can ruff follow the
         * leader's side suits (q counts no more than their lengths) and follow or lose their
         * trumps when trumps are led, so partner's count, limited by their lengths in its
         * suits, still holds.  Not after drawing trumps (*entry < 0), whose cut-off keeps
         * the trumps first in W. */
        int pnon = throwable(s, pa, PW), lnon = throwable(s, leader, W);
        if (pnon >= q)
            for (int su = 0; su < 4; su++)
                if (PW[su] && s->hand[leader][su] && lnon - (su != s->trump) >= pq) {
                    for (int k = 0; k < 4; k++) W[k] |= PW[k];
                    *entry = su;
                    return q + pq;
                }
    }
    if (pq <= q) return q;
    for (int su = 0; su < 4; su++) {
        if (PW[su] && s->hand[leader][su]) {
            /* an entry: lead any card of su, partner wins with a top card */
            for (int k = 0; k < 4; k++) W[k] = PW[k];
            *entry = su;
            return pq;
        }
    }
    return q;
}

/* The highest k cards of m. */
static inline unsigned top_cards(unsigned m, int k) {
    unsigned out = 0;
    while (k-- > 0 && m) {
        int r = hibit(m);
        out |= 1u << r;
        m &= ~(1u << r);
    }
    return out;
}

/* At no trump (at trumps too, below): the leader cashes its cards of each suit from the top while each is above every
 * card the opponents may still hold there (they keep their best: a card counts once it is above
 * the best card of each opponent not yet void) and above the card partner follows with (its
 * lowest: K Q x opposite A x x makes two tricks, the ace staying with partner); then, through
 * a suit where it has a card left, reaches partner, who cashes its cards the same way from the
 * top (above the opponents' best left and the leader's lowest left there): A x opposite K Q x
 * makes three.  Void in a suit led, partner throws a card it neither follows with nor counts
 * (of its R cards, R - pq are not counted: enough when lq of them, partner's followers among
 * them), and the leader, once it has led to partner, throws its best card of some suit (its
 * lowest are what it follows with).  Returns the count when it makes `need`, with XW the
 * cards whose rank the proof compares (a card played when every other hand has run out of its
 * suit wins by the lengths, in the key), kept for whole suits only, as few as make `need`;
 * else 0.  (Measured, with the no-trump guess of bridge_guess: 6.4% fewer nodes on 150 random
 * no-trump deals, 8.0% and 9.7% on two other sets of 150; about 3% more instructions a node,
 * 4% less CPU time.  Tried only where the other quick tricks fall short and two tricks or more
 * are needed: with one, those already count partner's winner.)  At trumps the same count holds
 * once nobody can ruff: when the opponents hold no trump, or the leader's trumps, cashed first,
 * draw theirs; and neither hand may have to ruff its partner's winner (see the trump rules in
 * the body).  (Measured on 200 random trump deals: 35.38M -> 34.84M nodes, -1.5%; on 200 others
 * 38.34M -> 37.80M, -1.4%; CPU time on both sets, the builds alternated three times, twice:
 * medians 6.66 -> 6.55 s and 6.68 -> 6.61 s.  Letting the leader cash side suits without
 * drawing, as often as every opponent holding trumps can follow, saved 0.7% more nodes on
 * both sets but no time: it is tried far more often.) */
/* One hand of nt_cross_tricks' side cashing a suit from the top (*cash) while the other
 * follows with its lowest (*follow): each card must be above the best card of each opponent
 * still holding the suit after *j rounds (nl, nr cards; tops lt, rt: they keep their best)
 * and above the follower's card.  Takes the cards played out of both hands, counts the rounds
 * in *j, adds to *xw the ranks compared (none when every other hand is out of the suit: the
 * lengths decide) and returns the tricks. */
static int cash_over(unsigned *cash, unsigned *follow, int *j, int nl, int nr, int lt, int rt,
                     uint16_t *xw) {
    int won = 0;
    while (*cash) {
        int r = hibit(*cash);
        if ((nl > *j && lt > r) || (nr > *j && rt > r)) break;
        int low = *follow ? __builtin_ctz(*follow) : -1;
        if (low > r) break;
        if (nl > *j || nr > *j || *follow) *xw |= (uint16_t)(1u << r);
        *cash &= ~(1u << r);
        if (*follow) *follow &= ~(1u << low);
        (*j)++;
        won++;
    }
    return won;
}

static int nt_cross_tricks(const Solver *s, int leader, int need, int R, uint16_t XW[4]) {
    int pa = (leader + 2) & 3, lho = (leader + 1) & 3, rho = (leader + 3) & 3;
    int tr = s->trump, otl = 0; /* at trumps: the opponents' longer trump holding */
    if (tr >= 0) {
        unsigned ot = s->hand[lho][tr] | s->hand[rho][tr];
        if (ot) {
            int a = popc(s->hand[lho][tr]), b = popc(s->hand[rho][tr]);
            otl = a > b ? a : b;
            /* the leader draws them first, with trumps above all of theirs */
            if (popc(s->hand[leader][tr] >> (hibit(ot) + 1)) < otl) return 0;
        }
    }
    /* A cheap bound first: a suit gives nothing when an opponent holds its best card, no more
     * than the longer hand's length, nor, when the longer opponent there holds n cards, more
     * than the side's cards above that opponent's best if those are fewer than n (the count
     * stops at the first round lost, and each of the first n rounds must be won above that
     * card) */
    int most = 0;
    for (int su = 0; su < 4; su++) {
        unsigned L = s->hand[leader][su], P = s->hand[pa][su];
        unsigned ol = s->hand[lho][su], orr = s->hand[rho][su];
        if ((L | P) < (ol | orr)) continue; /* an opponent's best card: nothing */
        int a = popc(L), b = popc(P), nl = popc(ol), nr = popc(orr);
        int len = a > b ? a : b;
        unsigned x = nl > nr || (nl == nr && ol > orr) ? ol : orr;
        int n = nl > nr ? nl : nr;
        if (x) {
            int t = popc((L | P) >> (hibit(x) + 1));
            if (t < n && t < len) len = t;
        }
        most += len;
    }
    if (most < need) return 0;
    int lq = 0, pq = 0, esu = -1;
    int lt_su[4], pt_su[4]; /* tricks of each suit: the leader's, partner's */
    for (int su = 0; su < 4; su++) {
        XW[su] = 0;
        unsigned L = s->hand[leader][su], P = s->hand[pa][su];
        unsigned ol = s->hand[lho][su], orr = s->hand[rho][su];
        int nl = popc(ol), nr = popc(orr);
        int lt = ol ? hibit(ol) : -1, rt = orr ? hibit(orr) : -1;
        int j = 0; /* rounds of the suit played */
        lt_su[su] = cash_over(&L, &P, &j, nl, nr, lt, rt, &XW[su]);
        lq += lt_su[su];
        unsigned entry = L; /* the leader's cards left: one leads to partner */
        int k = cash_over(&P, &L, &j, nl, nr, lt, rt, &XW[su]);
        pt_su[su] = k;
        pq += k;
        if (k && entry && (esu < 0 || k + lt_su[su] > pt_su[esu] + lt_su[esu])) esu = su;
    }
    if (esu < 0) {
        pq = 0;
        for (int su = 0; su < 4; su++) pt_su[su] = 0;
    }
    if (R - pq < lq || lq + pq < need) return 0;
    if (tr >= 0) {
        /* At trumps (see side_quick_tricks): the leader's trump rounds, cashed first, must
         * draw every trump the opponents hold; then nobody can ruff.  A hand void in the suit
         * led must not have to ruff its partner's winner (that would take the lead away): partner
         * follows the leader's trump leads with trumps while it has some (f of them) and plays
         * a non-trump to each other trick of the leader's, so it needs that many non-trumps it
         * does not count (its followers among them: the argument above); the leader likewise
         * during partner's tricks (g trump tricks followed with trumps, its entry card among
         * its other plays). */
        if (lt_su[tr] < otl) return 0;
        int pn = 0, ln = 0;
        for (int su = 0; su < 4; su++)
            if (su != tr) {
                pn += popc(s->hand[pa][su]) - pt_su[su];
                ln += popc(s->hand[leader][su]) - lt_su[su];
            }
        int pt = popc(s->hand[pa][tr]), lt = popc(s->hand[leader][tr]) - lt_su[tr];
        int f = lt_su[tr] < pt ? lt_su[tr] : pt, g = pt_su[tr] < lt ? pt_su[tr] : lt;
        if (pn < lq - f || ln < pq - g) return 0;
    }
    /* keep whole suits, the entry suit first (and at trumps the trumps that draw the
     * opponents'), then those giving most, until `need` is made (a suit left out is neither
     * cashed nor led to) */
    int got = 0, used[4] = {0, 0, 0, 0};
    if (esu >= 0) {
        used[esu] = 1;
        got = lt_su[esu] + pt_su[esu];
    }
    if (otl && !used[tr]) {
        used[tr] = 1;
        got += lt_su[tr] + pt_su[tr];
    }
    while (got < need) {
        int best = -1, bc = 0;
        for (int su = 0; su < 4; su++) {
            int c = used[su] ? 0 : lt_su[su] + pt_su[su];
            if (c > bc) best = su, bc = c;
        }
        used[best] = 1;
        got += bc;
    }
    for (int su = 0; su < 4; su++)
        if (!used[su]) XW[su] = 0;
    return lq + pq;
}

/* The better of the leader cashing its own top cards and, when the leader can reach
 * partner's hand with a safe winner there, partner cashing partner's (4 seats only).  When
 * that does not make the `need` tricks wanted, nt_cross_tricks' count (at trumps too, unless
 * OFF_TRUMP_ENTRY; not with no-suit cards in play, which the count does not know of); *keep
 * then says that W is already cut to what the cut-off needs (trim_quick_w would not do: it
 * takes each suit's cards to be one hand's). */
static int side_quick_tricks(const Solver *s, int leader, uint16_t W[4], int *entry,
                             int *extra, int *keep, int need) {
    *extra = 0;
    *keep = 0;
    int q = quick_tricks(s, leader, W, entry, 1);
    /* The leader's own count already makes the tricks wanted: partner's is not worked out
     * (measured on 30 random deals: 0.65% fewer instructions in all, 0.15% more nodes, the
     * cut-offs' W being the leader's cards where it had been partner's at times; +0.1% nodes
     * on benchmarks.dd_nodes' 150 deals) */
    if (s->nseats != 4 || (s->off & OFF_PARTNER_QUICK) || q >= need) return q;
    int v = partner_quick_tricks(s, leader, W, entry, extra, q);
    uint16_t XW[4];
    int x;
    if (v < need && need > 1 && (s->trump < 0 || !(s->off & OFF_TRUMP_ENTRY)) && !s->spare &&
        !(s->deck[JOKER] & ~s->gone[JOKER]) &&
        (x = nt_cross_tricks(s, leader, need, s->curR, XW)) >= need) {
        for (int su = 0; su < 4; su++) W[su] = XW[su];
        *entry = -1;
        *extra = 0;
        *keep = 1;
        return x;
    }
    return v;
}

/* A quick-trick cut-off needs only `need` of the counted tricks: keep in W just the top cards
 * that make them (the entry suit first when partner's winners are reached through it, then
 * the suits giving most tricks), so the bound recorded higher up covers more positions. */
static void trim_quick_w(const Solver *s, uint16_t W[4], int need, int entry) {
    uint16_t out[4] = {0, 0, 0, 0};
    int used[4] = {0, 0, 0, 0};
    while (need > 0) {
        int best = -1, bc = 0;
        if (entry >= 0 && !used[entry]) best = entry, bc = popc(W[entry]);
        else
            for (int su = 0; su < 4; su++) {
                int c = used[su] ? 0 : popc(W[su]);
                if (c > bc) best = su, bc = c;
            }
        if (best < 0 || bc == 0) break;
        used[best] = 1;
        int k = bc < need ? bc : need;
        /* Cards of a suit that no other hand holds, and cards counted once everybody else
         * has run out of the suit (see quick_tricks_core), win by the lengths alone (in the
         * key): only the ranks above every other hand's cards go into W. */
        unsigned h = s->hand[s->owner[best][hibit(W[best])]][best];
        unsigned others = s->deck[best] & ~(unsigned)s->gone[best] & ~h;
        int t = others ? popc(W[best] >> (hibit(others) + 1)) : 0;
        out[best] = (uint16_t)top_cards(W[best], k < t ? k : t);
        need -= k;
    }
    if (need > 0) return; /* cannot happen: keep W whole */
    for (int su = 0; su < 4; su++) W[su] = out[su];
}

/* With no trump in play: how many leads can the side of seat x make in the suits whose best
 * card it holds (each lead takes a card of the suit from both its hands, while they hold
 * some: the longer hand's length a suit), and in W the best card of each suit the other side
 * holds (none when one hand holds the whole suit: the lengths say so). */
static int lead_capacity(const Solver *s, int x, const uint16_t rem[NSUITS], uint16_t W[4]) {
    int y = (x + 2) & 3, sum = 0;
    for (int su = 0; su < 4; su++) {
        W[su] = 0;
        if (!rem[su]) continue;
        int t = hibit(rem[su]);
        int o = s->owner[su][t];
        if (s->side[o] == s->side[x]) {
            int a = seat_len(s, x, su), b = seat_len(s, y, su);
            sum += a > b ? a : b;
        } else if (rem[su] != s->hand[o][su]) {
            W[su] = (uint16_t)(1u << t);
        }
    }
    return sum;
}

/* Sure trump tricks of one hand: every trump of it above all the other side's trumps wins a
 * trick of its own when played (the later-trick rule generalised).  More generally, a trump
 * of it above all but the k best of the other side's trumps loses only on a trick where one
 * of those k is played, and the hand plays one card a trick: at most k of them lose (KQJ
 * against the ace make two tricks).  Returns the best count; *mask gets the trumps counted
 * with *k (a cut-off needing n tricks keeps the n + k best of them in W), or 0 when the other
 * side holds no trump at all (the count then follows from the lengths, in the key). */
static int hand_sure_trumps(const Solver *s, int p, int R, uint16_t *mask, int *kk) {
    int best = 0;
    *mask = 0;
    *kk = 0;
    unsigned mine = s->hand[p][s->trump];
    if (!mine) return 0;
    /* a hand with spare cards may never get to play its trumps */
    if (s->spare && hand_len(s, p) > R) return 0;
    unsigned opp = 0;
    for (int o = 0; o < s->nseats; o++)
        if (s->side[o] != s->side[p]) opp |= s->hand[o][s->trump];
    unsigned o = opp;
    int all = popc(mine);
    for (int k = 0;; k++) {
        unsigned top = o ? mine & ~((2u << hibit(o)) - 1) : mine;
        int c = popc(top) - k;
        if (c > best) {
            best = c;
            *kk = k;
            *mask = opp ? (uint16_t)top : 0;
        }
        /* (no later k can count more than all - k - 1: stop there) */
        if (!o || (s->off & OFF_TRUMPS_BUT_K) || all - k - 1 <= best) break;
        o &= ~(1u << hibit(o));
    }
    return best;
}

/* Column mode, four seats, trumps, no spare cards: hand_sure_trumps's count for every seat at
 * once, 4 bits a seat (seat p in bits 4p..4p+3).  The counts depend on nothing but which trumps
 * each hand holds, and, the deal fixing who holds each card, on the set of trumps still in the
 * hands (the sides are the two partnerships whoever the max side is); so they are kept in a
 * table indexed by that set, filled as sets come up (a set's four counts were a tenth of the
 * work of the search in column mode, asked for again and again at the same trump holdings). */
static inline unsigned column_sure_counts(const Solver *s) {
    int tr = s->trump;
    unsigned key = s->hand[0][tr] | s->hand[1][tr] | s->hand[2][tr] | s->hand[3][tr];
    if (s->csure && s->csure[key] != 0xffff) return s->csure[key];
    unsigned v = 0;
    for (int p = 0; p < 4; p++) {
        uint16_t m;
        int k;
        v |= (unsigned)hand_sure_trumps(s, p, s->curR, &m, &k) << (4 * p);
    }
    if (s->csure) s->csure[key] = (uint16_t)v;
    return v;
}

/* ---- move ordering ------------------------------------------------------------------- */

/* The killer lead (the lead that last cut off with as many tricks left, Solver.killer) gets
 * this much on top of its own score: as strong as leading in a suit where the opponents have
 * some nine cards fewer to reply with, but no longer first whatever else holds (measured on
 * the 150 deals of benchmarks.dd_nodes: 2% fewer nodes, on 150 other deals 4%; 100 or 300
 * saved less).  In column mode too, where it was first whatever else held, and where it is
 * only recorded when a lead cut off after an earlier one failed (a lead that cut off when
 * tried first was already the move ordering's choice; recording it pushed out a killer that
 * corrected the ordering).  Measured on the Open Whist par boards and 36 other boards dealt
 * the same way: the bonus instead of first 193.86M -> 183.84M nodes (-5.2%) and 128.72M ->
 * 122.49M (-4.8%); recorded only after a failed lead, 171.27M (-11.7% in all) and 113.00M
 * (-12.2%); with that, 100 about as good (171.8M, 112.6M), 200 too on the par boards but not
 * the others (170.2M, 117.0M), 40 or 300 saved less, 1000 (first in effect) 176.8M and
 * 120.3M.  Outside column mode, recorded only after a failed lead too (it had been recorded
 * at every cut-off): 26.18M -> 25.36M nodes on benchmarks.dd_nodes' deals (-3.1%), 70.09M ->
 * 67.77M on 300 others (-3.3%). */
#define KILLER_BONUS 150
/* The killer lead that the last one replaced gets this much (column mode, measured as above:
 * 171.27M -> 169.68M nodes, -0.9%, and 113.00M -> 111.59M, -1.2%; 20, 40 and 100 within
 * 0.5% of that on both sets, so a real if small gain; outside it, with the later cards' killer
 * below: +0.5% nodes on benchmarks.dd_nodes' deals, -1.5% and -1.3% on 500 others). */
#define KILLER2_BONUS 60
/* Outside column mode, the killer lead of one trick more or one trick fewer left gets this
 * much: a lead that corrected the ordering a trick earlier or later is often the right one
 * again (the same suit kept up, or a lead the defence must find whatever was played first).
 * Nodes of benchmarks.dd_nodes' deals 24.60M -> 24.15M (-1.8%), 150 others (seeds 101, 202,
 * 303) 32.41M -> 31.35M (-3.3%), 200 more (seeds 404 to 707) 38.12M -> 38.09M; either alone
 * saved less (the trick before: 24.44M, 32.01M), and 30, 45, 75 and 100 for either or both
 * were no better on both sets. */
/* (The arrays are indexed by tricks left, 0..MAXHAND: a lead has R >= 1 tricks left and a
 * position at most MAXHAND - 1, so R - 1 and R + 1 stay inside them.) */
#define KILLER_NEAR_BONUS 60
/* ... and the killer leads those replaced, this much: on top of the above, 24.15M -> 24.02M,
 * 31.35M -> 31.19M and 38.09M -> 37.85M nodes (-0.5% on each set; 20 gave 24.20M and
 * 31.10M). */
#define KILLER2_NEAR_BONUS 40
/* Column mode, the second, third and last hands: the card that last cut off with as many
 * tricks left, at the same place in the trick and with the same suit led, after an earlier
 * card failed (Solver.fkiller) gets this much, a few steps of the card-play scores there.
 * Recorded at every cut-off, as the lead's was, it cost nodes (+20% with 30, +109% with 200 on
 * the Open Whist par boards, the killer lead then first): the card-play scores had already put
 * such a card first.  Recorded only after a failed card, measured on the par boards and on 36
 * other boards dealt the same way, with 30 and without the suit led: 169.68M -> 139.39M nodes
 * (-17.9%) and 111.59M -> 90.01M (-19.3%); one per seat instead of per place in the trick,
 * 144.3M; for the second and third hands alone, or the third and last, 148.7M and 147.1M; a
 * second, older card as for the lead, 142.1M.  By the suit led too, 137.27M and 88.81M; by
 * the card led instead, 144.0M; by the suit led and whether partner is winning, 135.9M but
 * 89.05M.  Then 45: 134.17M and 86.85M (-20.9% and -22.2% from 169.68M and 111.59M); 20, 30,
 * 60 and 80 gave 138.9M, 137.3M, 135.8M and 140.3M, and 89.3M, 88.8M, 87.8M and 91.0M. */
#define FOLLOW_KILLER_BONUS 45
/* The same outside column mode, where the card-play scores of the later cards are a few
 * points apart (the first card tried already settles 98-99% of those nodes): on top of the
 * lead's killer recorded after a failure, 25.36M -> 24.70M nodes on benchmarks.dd_nodes' deals
 * (-2.6%), 67.77M -> 65.07M on 300 others (-4.0%), and 40.72M (the build before both) ->
 * 36.90M on 200 more; 8, 15, 20, 30 and 45 gave 25.45M, 25.13M, 25.11M, 25.18M and 26.01M
 * on the first deals, 66.76M, 66.07M, 65.73M, 64.94M and 66.43M on the second. */
#define FOLLOW_KILLER_BONUS_CLASSIC 25

/* drop: the suit whose cards the mover puts aside to play this off-suit card, or -1 */
typedef struct { int su, r, score, drop; } Move;

static inline void sort_moves(Move *mv, int n) {
    /* insertion sort, best first (stable: equal scores keep the order generated) */
    for (int i = 1; i < n; i++) {
        Move t = mv[i];
        int j = i - 1;
        while (j >= 0 && mv[j].score < t.score) { mv[j + 1] = mv[j]; j--; }
        mv[j + 1] = t;
    }
}

/* A generated card, scored by its card-play heuristic first and then, to break ties, by the
 * history of cut-offs this card made for this seat. */
static inline void put_move(Move *m, const Solver *s, int seat, int su, int r, int drop, int score) {
    m->su = su;
    m->r = r;
    m->drop = drop;
    m->score = score * 4096 + s->hist[seat][su][r];
}

/* What move ordering needs to know of the hands still to play to this trick, seen from
 * `seat` about to play to it after the lead (`led`: the suit led, -1 when nothing of a suit
 * was led; ws, wr: the suit and rank of the card now winning), from `vis`, the cards each
 * hand can play now (its exposed ones in column mode):
 *   - threat: the next player, an opponent, can beat the card now winning; nxtop: its best
 *     card of the suit led, -1 if it can neither follow nor ruff, 16 if it can ruff (or is
 *     partner, or the trick ends with this card);
 *   - second hand of four, following suit: p4wins, partner playing last beats the lead and
 *     every card the third hand (an opponent) can play; min3, min4, the lowest card of the
 *     third hand and of partner, and sec3, the third hand's second-best (-1: none);
 *   - third hand of four, the suit led not ruffed and the last player following: sec4, the
 *     last player's second-best card of the suit (-1: none; its best is nxtop).
 * Shared by gen_moves and its short paths, so that all order the moves alike. */
typedef struct {
    int threat, nxtop, second, p4wins, min3, min4, sec3, third, sec4;
} Ahead;

static inline Ahead trick_ahead(const Solver *s, const uint16_t (*vis)[NSUITS], int seat,
                                int led, int ws, int wr, int last, int nseats) {
    Ahead a = {0, 16, 0, 0, -1, -1, -1, 0, -1};
    int trump = s->trump;
    if (!last && led >= 0) {
        int nx = (seat + 1) % nseats;
        if (s->side[nx] != s->side[seat]) {
            unsigned nl = vis[nx][led];
            if (nl) a.nxtop = hibit(nl);
            else if (!(trump >= 0 && vis[nx][trump])) a.nxtop = -1;
            if (ws == led)
                a.threat = (nl >> (wr + 1)) != 0 || (!nl && trump >= 0 && vis[nx][trump] != 0);
            else if (ws == trump)
                a.threat = !nl && (vis[nx][trump] >> (wr + 1)) != 0;
        }
    }
    if (s->tcnt == 1 && nseats == 4 && led >= 0 && ws == led) {
        unsigned t3 = vis[(seat + 1) & 3][led], t4 = vis[(seat + 2) & 3][led];
        a.second = 1;
        if (t3) a.min3 = __builtin_ctz(t3);
        if (t4) a.min4 = __builtin_ctz(t4);
        a.p4wins = t4 && hibit(t4) > wr && a.nxtop < 16 && hibit(t4) > a.nxtop;
        unsigned t3b = t3 & ~(t3 ? 1u << hibit(t3) : 0u);
        if (t3b) a.sec3 = hibit(t3b);
    }
    if (s->tcnt == 2 && nseats == 4 && led >= 0 && ws == led && vis[(seat + 1) & 3][led]) {
        unsigned t4 = vis[(seat + 1) & 3][led];
        a.third = 1;
        t4 &= ~(1u << hibit(t4));
        if (t4) a.sec4 = hibit(t4);
    }
    return a;
}

/* gen_moves for the commonest node, a hand following suit (not in column mode, no spare
 * cards, no no-suit card it may play instead): the same moves in the same order, scored by
 * the same rules as there (only those for a card of the suit led can apply), without
 * gathering the facts the other cases need, and unscored when only one card is left after
 * pruning equivalent ones.  The general code stays the reference: the node counts of
 * benchmarks.dd_nodes are the same either way. */
static int gen_follow_suit(Solver *s, int seat, Move *mv, int led, uint16_t pruned[4]) {
    unsigned m = s->hand[seat][led];
    unsigned others = s->deck[led] & ~(unsigned)s->gone[led] & ~m;
    int eq = !(s->off & OFF_EQUIVALENT);
    int n = 0, prev = -1;
    while (m) {
        int r = hibit(m);
        m &= ~(1u << r);
        if (eq && prev >= 0 && !(((1u << prev) - 1) & ~((2u << r) - 1) & others)) {
            pruned[led] |= (uint16_t)(1u << r); /* nothing live between: equivalent */
            continue;
        }
        prev = r;
        mv[n].su = led;
        mv[n].r = r;
        mv[n].drop = -1;
        mv[n].score = 0;
        n++;
    }
    if (n == 1) return 1;
    int widx = cur_winner(s);
    int winning_side = s->side[s->tseat[widx]];
    int ws = s->tsuit[widx], wr = s->trank[widx];
    int me = s->side[seat], trump = s->trump;
    int last = s->tcnt == s->nseats - 1;
    Ahead a = trick_ahead(s, (const uint16_t(*)[NSUITS])s->hand, seat, led, ws, wr, last, s->nseats);
    int threat = a.threat, nxtop = a.nxtop, third = a.third, sec4 = a.sec4;
    int second = a.second, p4wins = a.p4wins, min3 = a.min3, min4 = a.min4, sec3 = a.sec3;
    for (int i = 0; i < n; i++) {
        int r = mv[i].r, score;
        int can_win = led == ws ? r > wr : led == trump;
        if (winning_side == me) {
            if (threat && r > nxtop) score = 90 - r;
            else if (third && r > wr && r > sec4 && r < nxtop && sec4 >= 0) score = 70 - r;
            else score = 50 - r;
        } else if (second && (p4wins || (r > wr && r < nxtop))) {
            score = !p4wins && r > min3 && r > min4 ? (r > sec3 ? 60 : 45) - r : 30 - r;
        } else if (can_win) {
            if (last) score = 100 - r;
            else if (r > nxtop) score = 90 - r;
            else if (third && r < nxtop) score = r > sec4 ? 70 - r : 60 - r;
            else score = s->tcnt == 1 ? 35 - r : 60 - r;
        } else {
            score = 30 - r;
        }
        if (s->fkiller[s->curR][s->tcnt][led + 1] == led * 16 + r + 1)
            score += FOLLOW_KILLER_BONUS_CLASSIC;
        mv[i].score = score * 4096 + s->hist[seat][led][r];
    }
    sort_moves(mv, n);
    return n;
}

/* The same for a hand void in the suit led (it discards or ruffs), holding no no-suit card,
 * not in column mode, no spare cards: only the rules for a card of another suit apply. */
static int gen_void(Solver *s, int seat, Move *mv, int led, uint16_t pruned[4]) {
    int widx = cur_winner(s);
    int winning_side = s->side[s->tseat[widx]];
    int ws = s->tsuit[widx], wr = s->trank[widx];
    int me = s->side[seat], trump = s->trump;
    int last = s->tcnt == s->nseats - 1;
    int nx = (seat + 1) % s->nseats;
    int threat =
        trick_ahead(s, (const uint16_t(*)[NSUITS])s->hand, seat, led, ws, wr, last, s->nseats).threat;
    int eq = !(s->off & OFF_EQUIVALENT);
    int n = 0;
    for (int su = 0; su < 4; su++) {
        unsigned m = s->hand[seat][su];
        if (!m) continue;
        unsigned mine = m;
        unsigned others = s->deck[su] & ~(unsigned)s->gone[su] & ~mine;
        int others_top = others ? hibit(others) : -1;
        int guard = 0;
        if (su != trump) {
            unsigned oh = 0;
            for (int p = 0; p < s->nseats; p++)
                if (s->side[p] != me) oh |= s->hand[p][su];
            guard = popc(mine) == popc(oh >> (hibit(mine) + 1)) + 1 ? 60 : 0;
        }
        int len2 = 2 * popc(mine);
        int prev = -1;
        while (m) {
            int r = hibit(m);
            m &= ~(1u << r);
            if (eq && prev >= 0 && !(((1u << prev) - 1) & ~((2u << r) - 1) & others)) {
                pruned[su] |= (uint16_t)(1u << r);
                continue;
            }
            prev = r;
            int top_of_suit = others_top < r;
            int can_win = su == ws ? r > wr : su == trump;
            int score;
            if (winning_side == me) {
                if (su != trump) score = 20 + (top_of_suit ? 0 : 30) - r + len2 - guard;
                else if (threat && can_win && (s->hand[nx][led] || r > hibit(s->hand[nx][trump])))
                    score = 90 - r;
                else score = can_win ? 10 - r : -50 - r;
            } else if (can_win) {
                score = last ? 100 - r : 80 - r; /* can_win off the suit led: su is trumps */
            } else {
                score = (top_of_suit ? 0 : 30) - r + len2 - guard;
                if (su == trump) score -= 100;
            }
            if (s->fkiller[s->curR][s->tcnt][led + 1] == su * 16 + r + 1)
                score += FOLLOW_KILLER_BONUS_CLASSIC;
            put_move(&mv[n++], s, seat, su, r, -1, score);
        }
    }
    sort_moves(mv, n);
    return n;
}

/* The same for a lead of four hands (not in column mode, no spare cards, no no-suit card in
 * the leader's hand): the opponents are the next and the last hand, partner the one opposite,
 * and only the rules for a lead apply (the killer lead, the opponents' replies, the top
 * cards' owners, the table's best move), scored as there, without the facts the other cases
 * need.  (About a tenth of the instructions of a search were the leads' move generation.) */
static int gen_lead(Solver *s, int seat, Move *mv, int bsuit, int brel, uint16_t pruned[4]) {
    int trump = s->trump, R = s->curR;
    int lho = (seat + 1) & 3, pa = (seat + 2) & 3, rho = (seat + 3) & 3;
    int eq = !(s->off & OFF_EQUIVALENT);
    int killer = s->killer[R];
    unsigned tl = trump >= 0 ? s->hand[lho][trump] : 0, tr = trump >= 0 ? s->hand[rho][trump] : 0;
    unsigned tp = trump >= 0 ? s->hand[pa][trump] : 0;
    int n = 0;
    for (int su = 0; su < 4; su++) {
        unsigned m = s->hand[seat][su];
        if (!m) continue;
        unsigned live = s->deck[su] & ~(unsigned)s->gone[su];
        unsigned others = live & ~m;
        int others_top = others ? hibit(others) : -1;
        unsigned hl = s->hand[lho][su], hr = s->hand[rho][su], hp = s->hand[pa][su];
        /* who holds the three best cards (see gen_moves) */
        int o[3] = {-1, -1, -1}, tops = 0, kr = -1;
        unsigned l = live;
        for (int k = 0; k < 3 && l; k++) {
            int t = hibit(l);
            o[k] = s->owner[su][t];
            if (k == 1) kr = t;
            l &= ~(1u << t);
        }
        int pa_len = popc(hp);
        if ((o[0] == rho || o[1] == rho) && popc(hr) != 1) tops -= 40;
        else if (o[0] == lho && o[1] == pa && pa_len != 1) tops += 60;
        if (o[0] != seat && o[0] != pa) {
            if (o[1] == pa && o[2] == pa) tops += 30;
            else if (((o[1] == seat && o[2] == pa) || (o[1] == pa && o[2] == seat)) && pa_len > 1)
                tops += 20;
        }
        int choice = (hl ? popc(hl) : R) + (hr ? popc(hr) : R);
        int side_suit = trump >= 0 && su != trump;
        int ruffable = side_suit && ((tl && !hl) || (tr && !hr));
        int partner_top = hp && (!others || hibit(hp) == others_top);
        int partner_ruff = side_suit && !hp && tp;
        /* a singleton to partner's winner, to be ruffed on the return (see gen_moves_as) */
        if (side_suit && partner_top && pa_len > 1 && !(m & (m - 1)) && s->hand[seat][trump])
            tops += 60;
        int base = tops - 16 * choice;
        /* the second-best card, with the third, under an opponent's best (see gen_moves_as) */
        if (o[0] == pa || o[0] == seat || o[2] != seat) kr = -1;
        int prev = -1;
        while (m) {
            int r = hibit(m);
            m &= ~(1u << r);
            if (eq && prev >= 0 && !(((1u << prev) - 1) & ~((2u << r) - 1) & others)) {
                pruned[su] |= (uint16_t)(1u << r); /* nothing live between: equivalent */
                continue;
            }
            prev = r;
            int score;
            if (others_top < r && !ruffable) score = 100 + r;
            else if (partner_ruff && !ruffable) score = 80 - r;
            else if (partner_top && !ruffable) score = 100 - r;
            else score = 20 - r - (ruffable ? 30 : 0) + (su == trump ? -5 : 0);
            score += base;
            if (su == bsuit && popc(live >> (r + 1)) == brel) score += 50;
            if (killer == su * 16 + r + 1) score += KILLER_BONUS;
            else if (s->killer2[R] == su * 16 + r + 1) score += KILLER2_BONUS;
            else if (s->killer[R + 1] == su * 16 + r + 1 || s->killer[R - 1] == su * 16 + r + 1)
                score += KILLER_NEAR_BONUS;
            else if (s->killer2[R + 1] == su * 16 + r + 1 || s->killer2[R - 1] == su * 16 + r + 1)
                score += KILLER2_NEAR_BONUS;
            if (r == kr) score += 40;
            if (others_top < r && o[1] == lho) score += 20;
            if (o[0] == seat && others_top > r) score -= 60;
            if (o[0] == pa && o[1] == seat) score += 20;
            if (!hp && !tp) score -= 40;
            put_move(&mv[n++], s, seat, su, r, -1, score);
        }
    }
    sort_moves(mv, n);
    return n;
}

/* The general move generation (gen_moves below calls it).  COLS and LEAD are constants where
 * it is called, so that the compiler makes a copy of its own for each case and drops the
 * tests that cannot hold there: COLS is s->columns (0 or 1), LEAD is 1 for the leader (tcnt
 * 0), 0 after the lead, -1 when either may be.  The copies give the same moves in the same
 * order, being the same code. */
static inline __attribute__((always_inline)) int gen_moves_as(Solver *s, int seat,
                                                              Move *restrict mv, int bsuit,
                                                              int brel, uint16_t pruned[4],
                                                              uint16_t dominated[4],
                                                              const int COLS, const int LEAD,
                                                              const int NS) {
    const int nseats = NS ? NS : s->nseats;
    pruned[0] = pruned[1] = pruned[2] = pruned[3] = 0;
    dominated[0] = dominated[1] = dominated[2] = dominated[3] = 0;
    if (!COLS && s->tcnt && !s->spare) {
        int led = cur_led(s);
        if (led >= 0 && s->hand[seat][led] && !(s->jfollow && s->hand[seat][JOKER]))
            return gen_follow_suit(s, seat, mv, led, pruned);
        if (led >= 0 && !s->hand[seat][led] && !s->hand[seat][JOKER])
            return gen_void(s, seat, mv, led, pruned);
    }
    if (!COLS && !s->tcnt && !s->spare && nseats == 4 && !s->hand[seat][JOKER])
        return gen_lead(s, seat, mv, bsuit, brel, pruned);
    uint16_t lg[NSUITS];
    int drop;
    legal(s, seat, lg, &drop);
    int n = 0;
    if (COLS && s->tcnt && drop < 0) {
        /* Column mode, after the lead: a hand with one card it may play (often: it follows
         * suit with its only exposed card of the suit) needs no facts and no scores. */
        int only = -1;
        for (int su = 0; su < NSUITS; su++) {
            if (!lg[su]) continue;
            if (only >= 0 || (lg[su] & (lg[su] - 1))) { only = -2; break; }
            only = su;
        }
        if (only >= 0) {
            mv[0].su = only;
            mv[0].r = __builtin_ctz(lg[only]);
            mv[0].drop = -1;
            mv[0].score = 0;
            return 1;
        }
    }
    /* what the other players can play now: in column mode their exposed cards (a hand with
     * no exposed card of a suit can ruff it, whatever lies underneath) */
    const uint16_t(*vis)[NSUITS] = COLS ? s->expo : s->hand;
    int first = LEAD >= 0 ? LEAD : s->tcnt == 0;
    int last = s->tcnt == nseats - 1;
    int winning_side = -1, led = -1, ws = -1, wr = 0;
    if (!first) {
        int widx = cur_winner(s);
        winning_side = s->side[s->tseat[widx]];
        led = cur_led(s);
        ws = s->tsuit[widx];
        wr = s->trank[widx];
    }
    int me = s->side[seat];
    int trump = s->trump;
    /* the hands still to play to the trick (nothing when leading: led is -1) */
    Ahead a = trick_ahead(s, vis, seat, led, ws, wr, last, nseats);
    int threat = a.threat, nxtop = a.nxtop, third = a.third, sec4 = a.sec4;
    int second = a.second, p4wins = a.p4wins, min3 = a.min3, min4 = a.min4, sec3 = a.sec3;
    /* A hand with spare cards may put the suit led aside and play another card (drop).  With
     * a card that cannot win the trick (not a trump) that is never better than following
     * with its lowest card of the suit, when that card cannot win the trick either: the
     * trick goes the same way, and the hand keeps a superset of the cards (holding more
     * never hurts with spare cards: a hand can do whatever a hand holding fewer can).  The
     * proof needs the rank of the card winning now (with the lengths in the key, it says
     * that the hand holds a card below it). */
    int drop_dominated = 0;
    if (drop >= 0 && !(s->off & OFF_DROP_DOMINATED)) {
        if (ws != led) drop_dominated = 1; /* ruffed: no card of the suit led can win */
        else if (__builtin_ctz(s->hand[seat][led]) < wr) drop_dominated = 2;
    }
    /* per seat: holds trumps; which seats are opponents / partners of the mover */
    unsigned opp_trumps = 0, partners = 0;
    for (int p = 0; first && p < nseats; p++) {
        if (s->side[p] != me) {
            if (trump >= 0 && vis[p][trump]) opp_trumps |= 1u << p;
        } else if (p != seat) {
            partners |= 1u << p;
        }
    }
    for (int su = 0; su < NSUITS; su++) {
        unsigned m = lg[su];
        if (!m) continue;
        /* cards still out in this suit: in hands or in the trick */
        unsigned live = s->deck[su] & ~(unsigned)s->gone[su];
        unsigned mine = s->hand[seat][su];
        unsigned others = live & ~mine;
        int others_top = others ? hibit(others) : -1;
        /* A discard from a suit where the mover's best card is guarded by exactly enough
         * small cards (one more card than the opponents hold above it) unguards it: such
         * suits are discarded from last (measured: 2% fewer nodes; not in column mode, where
         * it cost 4%: the buried cards decide what can be kept). */
        int guard = 0;
        if (!first && !COLS && su != JOKER && led >= 0 && su != led && su != trump && mine) {
            unsigned oh = 0;
            for (int p = 0; p < nseats; p++)
                if (s->side[p] != me) oh |= vis[p][su];
            int ab = popc(oh >> (hibit(mine) + 1));
            guard = popc(mine) == ab + 1 ? 60 : 0;
        }
        /* facts of the suit, the same for every card of it */
        int ruffable = 0, partner_top = 0, partner_ruff = 0, tops = 0, kr = -1, lho2 = 0;
        int under = 0, pa_over = 0, pa_void = 0;
        if (first && su != JOKER && nseats == 4 && live && !COLS) {
            /* Who holds the three best cards of the suit (4 seats): leading into a top card
             * of the player who plays last to the trick (rho) gives it a free finesse; leading
             * toward partner's second-best card while the best one sits on the left, or
             * toward partner's (or the pair's) second and third best, sets up a trick.  Not in
             * column mode, where the top cards may lie out of reach (measured: no gain). */
            int o[3] = {-1, -1, -1};
            unsigned l = live;
            for (int k = 0; k < 3 && l; k++) {
                int t = hibit(l);
                o[k] = s->owner[su][t];
                if (k == 1) kr = t;
                l &= ~(1u << t);
            }
            int lho = (seat + 1) & 3, rho = (seat + 3) & 3, pa = (seat + 2) & 3;
            int pa_len = popc(vis[pa][su]);
            if ((o[0] == rho || o[1] == rho) && popc(vis[rho][su]) != 1) tops -= 40;
            else if (o[0] == lho && o[1] == pa && pa_len != 1) tops += 60;
            if (o[0] != seat && o[0] != pa) {
                if (o[1] == pa && o[2] == pa) tops += 30;
                else if (((o[1] == seat && o[2] == pa) || (o[1] == pa && o[2] == seat)) &&
                         pa_len > 1)
                    tops += 20;
            }
            /* A singleton of a side suit led to partner's best card, partner holding more
             * of it: partner wins and can return the suit for a ruff (DDS weighs this lead
             * up too; measured: 0.6% fewer nodes on the 150 deals of benchmarks.dd_nodes,
             * 1% on 150 others; +30 or +100 saved less) */
            if (trump >= 0 && su != trump && pa_len > 1 && !(mine & (mine - 1)) &&
                vis[seat][trump] && hibit(vis[pa][su]) == others_top)
                tops += 60;
            /* The second-best card of the suit, the leader holding the third-best too, under
             * an opponent's best (K from K Q against the ace): it forces out the ace and sets
             * up the next card, and comes before the leader's other cards of the suit (DDS
             * weighs it up too; measured: 4% fewer nodes on the 150 deals of
             * benchmarks.dd_nodes, 3% on 150 others; +20 and +60 saved less) */
            if (o[0] == pa || o[0] == seat || o[2] != seat) kr = -1;
            /* The leader's best card above all, the second-best on its left: cash it before
             * the next card of the suit (measured: 3.6% fewer nodes on the 150 deals of
             * benchmarks.dd_nodes, 2.3% on 150 others; +12 and +30 about as good; DDS weighs
             * this up at no trump) */
            lho2 = o[1] == lho;
            /* A small card of a suit whose best card the leader holds gives the opponents a
             * trick the best card would have kept (-60); with the best card partner's and the
             * second-best the leader's, the suit runs from either hand (+20).  (Measured
             * together: 3.0% fewer nodes on the 150 deals of benchmarks.dd_nodes, 7.0% on
             * 150 others; -40 and -100 for the first, +10 and +30 for the second saved less) */
            under = o[0] == seat;
            pa_over = o[0] == pa && o[1] == seat;
            /* Partner void in the suit with no trump to ruff it: partner only discards, the
             * leader's side has one card less in the fight (-40; measured: 3.0% fewer nodes on
             * the 150 deals of benchmarks.dd_nodes, 1.4% on 150 others; -20, -60 and -90
             * saved less; DDS weighs such a suit down at no trump) */
            pa_void = !vis[pa][su] && (trump < 0 || !vis[pa][trump]);
        }
        /* Above all, lead where the opponents have least choice: each card they can play in
         * the suit (hold; in column mode, have exposed) is one more reply to refute, and a
         * void, free to discard or ruff anything, counts as a whole hand.  A smaller tree to
         * search outweighs the card-play heuristics (measured: a quarter fewer nodes on two
         * sets of random deals, a fifth less time on Open Whist par). */
        /* column mode, leading: the best card the other side has exposed in the suit (-1 none;
         * 16 elsewhere) */
        int opp_exposed_top = 16;
        if (first && su != JOKER && COLS) {
            unsigned oe = 0;
            for (int p = 0; p < nseats; p++)
                if (s->side[p] != me) oe |= vis[p][su];
            opp_exposed_top = oe ? hibit(oe) : -1;
        }
        int choice = 0;
        if (first && su != JOKER)
            for (int p = 0; p < nseats; p++)
                if (s->side[p] != me) choice += vis[p][su] ? popc(vis[p][su]) : s->curR;
        if (first && su != JOKER) {
            if (trump >= 0 && su != trump)
                for (int p = 0; p < nseats; p++)
                    if ((opp_trumps >> p & 1) && !vis[p][su]) ruffable = 1;
            for (int p = 0; p < nseats; p++) {
                if (!(partners >> p & 1)) continue;
                unsigned ph = vis[p][su];
                if (ph && (!others || hibit(ph) == others_top)) partner_top = 1;
                if (trump >= 0 && su != trump && !ph && vis[p][trump]) partner_ruff = 1;
            }
        }
        int prev = -1;
        int cprev = -1, calone = 0; /* column mode: the previous legal card; alone in its column */
        while (m) {
            int r = hibit(m);
            m &= ~(1u << r);
            if (!COLS && prev >= 0 && !(s->off & OFF_EQUIVALENT)) {
                /* equivalent to the previous card kept if nothing live lies between */
                unsigned between = ((1u << prev) - 1) & ~((2u << r) - 1);
                if (su == JOKER || !(between & others)) {
                    /* a refutation that tried only the kept card holds elsewhere only where
                       the pruned card is still its neighbour (see the end of search) */
                    if (su != JOKER) pruned[su] |= (uint16_t)(1u << r);
                    continue;
                }
            }
            prev = r;
            if (COLS && su != JOKER && !(s->off & OFF_EQUIVALENT)) {
                /* Column mode: two cards of a suit that each lie alone in their column, with
                 * no other card still out between them (in any hand, or in this trick), are
                 * equivalent: after either one is played the position is the other one's
                 * with the two ranks and the two columns swapped, and nothing can tell them
                 * apart (each compares alike with every other card still out).  Cards are
                 * taken from the top down, so the card compared is the previous legal one,
                 * kept or itself equivalent to one kept. */
                /* (a legal card is its stack's top: it is alone when dealt at the bottom) */
                int alone = (s->cbottom[su] >> r) & 1;
                int eq = alone && calone && !(live & ((1u << cprev) - 1) & ~((2u << r) - 1));
                cprev = r;
                calone = alone;
                if (eq) continue;
            }
            /* a no-suit card that may be played while holding the suit led needs no drop
             * (holding more is never worse) */
            int dropping = drop >= 0 && su != drop && !(su == JOKER && s->jfollow);
            if (dropping && drop_dominated && su != trump) {
                if (drop_dominated == 2) dominated[ws] |= (uint16_t)(1u << wr);
                continue;
            }
            int score = 0;
            int top_of_suit = su != JOKER && others_top < r;
            if (first) {
                /* relative index for the remembered best move */
                int rel = popc(live >> (r + 1));
                if (su == JOKER) score = -50;
                else if (top_of_suit && !ruffable) score = 100 + r;
                else if (r > opp_exposed_top && !ruffable)
                    /* column mode: a card that wins the trick now only because the higher
                     * ones of the other side lie buried, before even the true top cards: its
                     * chance may not come again, the top cards' will (measured on the Open
                     * Whist par boards: 4% fewer nodes; ranked with the top cards, 0.5%) */
                    score = 120 + r;
                /* does partner hold the top card or ruff? lead low towards it (partner's top
                 * card as good as the leader's own: measured, 100 rather than 70 saved 3.9%
                 * of the nodes on the 150 deals of benchmarks.dd_nodes and 0.4% on 150
                 * others; not in column mode, where partner's card may lie buried) */
                else if (partner_ruff && !ruffable) score = 80 - r;
                else if (partner_top && !ruffable) score = COLS ? 70 - r : 100 - r;
                else score = 20 - r - (ruffable ? 30 : 0) + (su == trump ? -5 : 0);
                if (COLS && su != JOKER) {
                    /* column mode: a lead that uncovers a card above every other card of its
                     * suit still out (a winner to come) is a little better (measured on the
                     * Open Whist par boards: 2% fewer nodes with 15; 25 or more made more) */
                    int k = s->where[su][r], t = s->sttop[seat][k] - 1;
                    if (t >= 0) {
                        int c = s->stack[seat][k][t], cs = c >> 4, cr = c & 15;
                        unsigned ot = s->deck[cs] & ~(unsigned)s->gone[cs] &
                                      ~(unsigned)s->hand[seat][cs];
                        if (cs != JOKER && !(ot >> cr)) score += 15;
                    }
                }
                if (su != JOKER) {
                    score += tops - 16 * choice;
                    /* the table's best move only breaks near ties: as a first choice it
                     * was no better than the heuristics (it may come from another target) */
                    if (su == bsuit && rel == brel) score += 50;
                }
                if (s->killer[s->curR] == su * 16 + r + 1) score += KILLER_BONUS;
                else if (s->killer2[s->curR] == su * 16 + r + 1) score += KILLER2_BONUS;
                else if (!COLS && (s->killer[s->curR + 1] == su * 16 + r + 1 ||
                                   s->killer[s->curR - 1] == su * 16 + r + 1))
                    score += KILLER_NEAR_BONUS;
                else if (!COLS && (s->killer2[s->curR + 1] == su * 16 + r + 1 ||
                                   s->killer2[s->curR - 1] == su * 16 + r + 1))
                    score += KILLER2_NEAR_BONUS;
                if (r == kr) score += 40;
                if (top_of_suit && lho2) score += 20;
                if (under && !top_of_suit) score -= 60;
                if (pa_over) score += 20;
                if (pa_void) score -= 40;
            } else {
                int can_win;
                if (su == JOKER) can_win = 0;
                else if (led < 0) can_win = 1;
                else if (su == ws) can_win = r > wr;
                else can_win = su == trump;
                if (winning_side == me) {
                    /* partner is winning: play low, keep high cards */
                    if (led >= 0 && su != led && su != trump && su != JOKER)
                        score = 20 + (top_of_suit ? 0 : 30) - r + 2 * popc(mine) - guard;
                    else if (threat && su == led && r > nxtop)
                        score = 90 - r; /* the next opponent could win: take it safely */
                    else if (third && su == led && r > wr && r > sec4 && r < nxtop &&
                             (sec4 >= 0 || COLS))
                        /* third hand cannot stop the last player beating partner's card, but
                         * can make it spend its best card: try that before playing low
                         * (measured: 7% fewer nodes; not when that card is the last player's
                         * only one, which falls anyway: 1% fewer; in column mode more cards
                         * may lie under it) */
                        score = 70 - r;
                    else if (threat && can_win && su == trump && su != led &&
                             (vis[(seat + 1) % nseats][led] ||
                              r > hibit(vis[(seat + 1) % nseats][trump])))
                        /* the next opponent would beat partner's card: ruff it, cheapest
                         * first, with a trump that opponent cannot overruff (measured: 7%
                         * fewer nodes, Open Whist a quarter fewer) */
                        score = 90 - r;
                    else if (su == trump && su != led)
                        /* no need to ruff partner's winner; an underruff of partner's ruff
                         * wastes a trump that could ruff later: last of all */
                        score = can_win ? 10 - r : -50 - r;
                    else score = 50 - r;
                } else if (second && su == led && (p4wins || (r > wr && r < nxtop))) {
                    /* Second hand.  When partner's card will win anyway, ours cannot matter:
                     * lowest first.  A card that beats the lead but not the third hand, and
                     * lies above the lowest card of both the third hand and partner, may force
                     * out a high card or set up one of ours: such a play is more often the one
                     * that settles the node than a low card, so it comes first, cheapest
                     * first (measured: a sixth fewer nodes); above the third hand's second-best
                     * card, it forces out its best: those first (1% fewer).  Below the lowest
                     * card of the third hand or partner, it is as good as a low card. */
                    score = !p4wins && r > min3 && r > min4 ? (r > sec3 ? 60 : 45) - r : 30 - r;
                } else if (can_win) {
                    if (last) score = 100 - r;
                    else if (su == led && r > nxtop)
                        /* the next opponent cannot beat it either: the cheapest such card
                         * first, even before the top card (measured: 9% fewer nodes) */
                        score = 90 - r;
                    else if (su == trump && su != led)
                        score = 80 - r; /* ruff, cheapest first */
                    else if (third && su == led && r < nxtop)
                        /* third hand beats the second but not the last player: best a card
                         * that forces out the last player's best card, cheapest first */
                        score = r > sec4 ? 70 - r : 60 - r;
                    else score = s->tcnt == 1 ? 35 - r : 60 - r; /* win cheaply */
                } else if (led >= 0 && su != led && su != JOKER) {
                    /* a discard: keep winners, throw from long suits */
                    score = (top_of_suit ? 0 : 30) - r + 2 * popc(mine) - guard;
                    /* a trump that cannot win the trick (under a ruff) goes last: it could
                     * ruff later (measured: 1% fewer nodes) */
                    if (su == trump) score -= 100;
                } else {
                    score = 30 - r;
                }
            }
            if (!first && s->fkiller[s->curR][s->tcnt][led + 1] == su * 16 + r + 1)
                score += COLS ? FOLLOW_KILLER_BONUS : FOLLOW_KILLER_BONUS_CLASSIC;
            put_move(&mv[n++], s, seat, su, r, dropping ? drop : -1, score);
        }
    }
    sort_moves(mv, n);
    return n;
}

/* Moves for `seat`, best first (see gen_moves_as): column mode's leads and later cards, the
 * commonest nodes of Open Whist, each from a copy of their own. */
static int gen_moves(Solver *s, int seat, Move *mv, int bsuit, int brel, uint16_t pruned[4],
                     uint16_t dominated[4]) {
    if (s->columns) {
        if (s->nseats != 4) return gen_moves_as(s, seat, mv, bsuit, brel, pruned, dominated, 1, -1, 0);
        if (s->tcnt) return gen_moves_as(s, seat, mv, bsuit, brel, pruned, dominated, 1, 0, 4);
        return gen_moves_as(s, seat, mv, bsuit, brel, pruned, dominated, 1, 1, 4);
    }
    return gen_moves_as(s, seat, mv, bsuit, brel, pruned, dominated, 0, -1, 0);
}

/* ---- search -------------------------------------------------------------------------- */

/* Column mode: the card leaves the top of its stack and the one below it is exposed. */
static inline void expose_after(Solver *s, int seat, int su, int r) {
    s->zhand ^= s->zcard[su][r];
    s->inhand[su] &= (uint16_t)~(1u << r);
    int k = s->where[su][r];
    int t = --s->sttop[seat][k];
    s->expo[seat][su] &= (uint16_t)~(1u << r);
    if (t >= 0) {
        int c = s->stack[seat][k][t];
        s->expo[seat][c >> 4] |= (uint16_t)(1u << (c & 15));
    }
}

static inline void cover_again(Solver *s, int seat, int su, int r) {
    s->zhand ^= s->zcard[su][r];
    s->inhand[su] |= (uint16_t)(1u << r);
    int k = s->where[su][r];
    int t = s->sttop[seat][k]++;
    if (t >= 0) {
        int c = s->stack[seat][k][t];
        s->expo[seat][c >> 4] &= (uint16_t)~(1u << (c & 15));
    }
    s->expo[seat][su] |= (uint16_t)(1u << r);
}

/* play and unplay for a caller that knows whether it is in column mode (COLS, a constant
 * there: the classic search's copy then has no test of it) */
static inline __attribute__((always_inline)) void play_as(Solver *s, int seat, int su, int r,
                                                          const int COLS) {
    if (COLS) expose_after(s, seat, su, r);
    s->hand[seat][su] &= (uint16_t)~(1u << r);
    s->lens[seat >> 1] -= (uint64_t)1 << len_shift(seat, su);
    int k = s->tcnt;
    s->tsuit[k] = su;
    s->trank[k] = r;
    s->tseat[k] = seat;
    int pled = s->tled[k];
    int nled = pled >= 0 ? pled : (su != JOKER ? su : -1);
    int win;
    if (nled < 0) win = 0;      /* only no-suit cards so far: the leader keeps it */
    else if (pled < 0) win = k; /* this card sets the suit */
    else {
        int w = s->twin[k];
        if (su == s->tsuit[w]) win = r > s->trank[w] ? k : w;
        else win = su == s->trump ? k : w;
    }
    s->tled[k + 1] = nled;
    s->twin[k + 1] = win;
    s->tcnt = k + 1;
}

static inline __attribute__((always_inline)) void unplay_as(Solver *s, int seat, int su, int r,
                                                            const int COLS) {
    if (COLS) cover_again(s, seat, su, r);
    s->tcnt--;
    s->hand[seat][su] |= (uint16_t)(1u << r);
    s->lens[seat >> 1] += (uint64_t)1 << len_shift(seat, su);
}

static inline void play(Solver *s, int seat, int su, int r) {
    if (s->columns) play_as(s, seat, su, r, 1);
    else play_as(s, seat, su, r, 0);
}

static inline void unplay(Solver *s, int seat, int su, int r) {
    if (s->columns) unplay_as(s, seat, su, r, 1);
    else unplay_as(s, seat, su, r, 0);
}

static int search(Solver *s, int seat, int won, int target, int R, uint16_t W[4]);
static int search_col(Solver *s, int seat, int won, int target, int R, uint16_t W[4]);
static int search_cls(Solver *s, int seat, int won, int target, int R, uint16_t W[4]);

/* Put a seat's cards of one suit aside (spare cards, never played): they leave the game as
 * if gone, and the relative owner string of the suit closes up (highest first, so each
 * card's place is counted among the cards still out). */
static void drop_suit(Solver *s, int seat, int su) {
    unsigned m = s->hand[seat][su];
    while (m) {
        int r = hibit(m);
        m &= ~(1u << r);
        drop_relative(s, su, r);
        s->gone[su] |= (uint16_t)(1u << r);
    }
    s->lens[seat >> 1] -= (uint64_t)popc(s->hand[seat][su]) << len_shift(seat, su);
    s->hand[seat][su] = 0;
}

static void undrop_suit(Solver *s, int seat, int su, uint16_t cards, uint32_t rown) {
    s->hand[seat][su] = cards;
    s->gone[su] &= (uint16_t)~cards;
    s->lens[seat >> 1] += (uint64_t)popc(cards) << len_shift(seat, su);
    s->rown[su] = rown;
}

/* The winning card of a full trick, if its rank decided the trick (another card of its suit
 * was played to it), as a W contribution. */
static void add_rank_winner(const Solver *s, int widx, uint16_t W[4]) {
    int su = s->tsuit[widx];
    if (su == JOKER) return;
    for (int i = 0; i < s->tcnt; i++)
        if (i != widx && s->tsuit[i] == su) {
            W[su] |= (uint16_t)(1u << s->trank[widx]);
            return;
        }
}

/* Column mode: the key is the remaining cards (the deal fixes who holds them and where) and
 * the leader.  The set comes from column_h1, the Zobrist hash of the cards in the hands (zhand,
 * kept card by card as they are played and taken back, so a position a card or two ahead costs
 * two xors; the hash of the whole position cost some two dozen instructions, a position read or
 * prefetched at every card of the last two of each trick); the slot is matched on the position
 * itself (column_check, column_jl; see Slot). */
static inline uint64_t column_h1(const Solver *s, uint64_t zh, int leader) {
    return zh ^ s->zlead[leader];
}

static inline uint64_t column_check(const uint16_t rem[NSUITS]) {
    return rem[0] | ((uint64_t)rem[1] << 16) | ((uint64_t)rem[2] << 32) | ((uint64_t)rem[3] << 48);
}

static inline uint32_t column_jl(unsigned jokers, int leader, int R) {
    return jokers | ((uint32_t)(leader + 1) << 16) | ((uint32_t)R << 24);
}

/* After the last card of a trick: settle it and go on. */
static int finish_trick(Solver *s, int won, int target, int R, uint16_t W[4]) {
    s->trick_nodes++;
    int widx = cur_winner(s);
    int w = s->tseat[widx];
    int now = won + s->side[w];
    if (now >= target || now + R - 1 < target) {
        /* settled by this trick alone: only the rank that won it matters */
        W[0] = W[1] = W[2] = W[3] = 0;
        add_rank_winner(s, widx, W);
        return now >= target;
    }
    int saved_s[MAXSEATS], saved_r[MAXSEATS], saved_p[MAXSEATS];
    int saved_w[MAXSEATS + 1], saved_l[MAXSEATS + 1];
    int cnt = s->tcnt;
    uint32_t saved_own[4];
    memcpy(saved_w, s->twin, sizeof(saved_w));
    memcpy(saved_l, s->tled, sizeof(saved_l));
    memcpy(saved_own, s->rown, sizeof(saved_own));
    memcpy(saved_s, s->tsuit, sizeof(saved_s));
    memcpy(saved_r, s->trank, sizeof(saved_r));
    memcpy(saved_p, s->tseat, sizeof(saved_p));
    /* (column mode, which comes here only for principal_line, does not read the owners
     * string: dropping its cards there too is harmless, and it is restored below; a test of
     * s->columns in this loop, reread after every write through s, cost 0.7% of the
     * instructions) */
    for (int i = 0; i < cnt; i++) {
        if (saved_s[i] != JOKER) drop_relative(s, saved_s[i], saved_r[i]);
        s->gone[saved_s[i]] |= (uint16_t)(1u << saved_r[i]);
    }
    s->tcnt = 0;
    int spare = s->spare;
    int res = search_cls(s, w, won + s->side[w], target, R - 1, W);
    s->spare = spare;
    s->tcnt = cnt;
    memcpy(s->twin, saved_w, sizeof(saved_w));
    memcpy(s->tled, saved_l, sizeof(saved_l));
    memcpy(s->rown, saved_own, sizeof(saved_own));
    memcpy(s->tsuit, saved_s, sizeof(saved_s));
    memcpy(s->trank, saved_r, sizeof(saved_r));
    memcpy(s->tseat, saved_p, sizeof(saved_p));
    for (int i = 0; i < cnt; i++) s->gone[saved_s[i]] &= (uint16_t) ~(1u << saved_r[i]);
    add_rank_winner(s, widx, W);
    return res;
}

/* finish_trick for column mode: no ranks are recorded there (W stays clear), the owners
 * string is not kept and there are no spare cards, so only the trick itself is saved. */
static int column_finish_trick(Solver *s, int won, int target, int R, uint16_t W[4]) {
    s->trick_nodes++;
    int widx = cur_winner(s);
    int w = s->tseat[widx];
    int now = won + s->side[w];
    W[0] = W[1] = W[2] = W[3] = 0;
    if (now >= target || now + R - 1 < target) return now >= target;
    int cnt = s->tcnt;
    int saved_s[MAXSEATS], saved_r[MAXSEATS], saved_p[MAXSEATS];
    int saved_w[MAXSEATS + 1], saved_l[MAXSEATS + 1];
    memcpy(saved_w, s->twin, sizeof(saved_w));
    memcpy(saved_l, s->tled, sizeof(saved_l));
    memcpy(saved_s, s->tsuit, sizeof(saved_s));
    memcpy(saved_r, s->trank, sizeof(saved_r));
    memcpy(saved_p, s->tseat, sizeof(saved_p));
    uint16_t saved_g[NSUITS];
    memcpy(saved_g, s->gone, sizeof(saved_g));
    for (int i = 0; i < cnt; i++) s->gone[saved_s[i]] |= (uint16_t)(1u << saved_r[i]);
    s->tcnt = 0;
    int res = search_col(s, w, now, target, R - 1, W);
    s->tcnt = cnt;
    memcpy(s->twin, saved_w, sizeof(saved_w));
    memcpy(s->tled, saved_l, sizeof(saved_l));
    memcpy(s->tsuit, saved_s, sizeof(saved_s));
    memcpy(s->trank, saved_r, sizeof(saved_r));
    memcpy(s->tseat, saved_p, sizeof(saved_p));
    memcpy(s->gone, saved_g, sizeof(saved_g));
    W[0] = W[1] = W[2] = W[3] = 0;
    return res;
}

/* Table bounds are kept for the reference side; convert for the side now maximising. */
static inline void bounds_for_max(const Solver *s, int elb, int eub, int R, int *lb, int *ub) {
    if (eub > R) eub = R;
    if (s->curmask == s->refmask) {
        *lb = elb;
        *ub = eub;
    } else {
        *lb = R - eub;
        *ub = R - elb;
    }
}

/* Tighten a stored pair of bounds (kept for the reference side) with a search's new bounds
 * for the side now maximising: the partial-key entries and the exact column entries alike. */
static inline void merge_bounds(const Solver *s, int8_t *elb, int8_t *eub, int R, int lb, int ub) {
    int olb, oub;
    bounds_for_max(s, *elb, *eub, R, &olb, &oub);
    if (lb < olb) lb = olb;
    if (ub > oub) ub = oub;
    if (s->curmask == s->refmask) {
        *elb = (int8_t)lb;
        *eub = (int8_t)ub;
    } else {
        *elb = (int8_t)(R - ub);
        *eub = (int8_t)(R - lb);
    }
}

static void tt_clear(Solver *s) {
    if (s->ctab) memset(s->ctab, 0, sizeof(Slot) * WAYS * (size_t)(s->cmask + 1));
    memset(s->tt, 0, sizeof(Bucket) * (size_t)(s->ttmask + 1));
    s->tused = 0;
    s->pused = 0;
}

/* The table starts small (a solve that needs little memory touches little) and doubles
 * up to its limit; allocation failures just mean clearing instead of growing. */
static int tt_grow(Solver *s) {
    uint64_t size = s->ttmask + 1;
    if (size >= ((uint64_t)1 << s->maxbits)) return 0;
    Bucket *nt = calloc((size_t)size * 2, sizeof(Bucket));
    if (!nt) return 0;
    uint64_t mask = size * 2 - 1;
    for (uint64_t j = 0; j < size; j++) {
        const Bucket *b = &s->tt[j];
        if (!b->check) continue;
        uint64_t i = b->h1 & mask;
        while (nt[i].check) i = (i + 1) & mask;
        nt[i] = *b;
    }
    free(s->tt);
    s->tt = nt;
    s->ttmask = mask;
    return 1;
}

static int pool_grow(Solver *s) {
    if (s->npool >= s->maxpool) return 0;
    int32_t n = s->npool * 2 > s->maxpool ? s->maxpool : s->npool * 2;
    Chunk *np = realloc(s->pool, sizeof(Chunk) * (size_t)n);
    if (!np) return 0;
    s->pool = np;
    s->npool = n;
    return 1;
}

static Bucket *bucket_find(Solver *s, uint64_t h1, uint64_t h2, int create) {
    uint64_t i = h1 & s->ttmask;
    for (;;) {
        Bucket *b = &s->tt[i];
        if (b->check == h2) return b;
        if (b->check == 0) {
            if (!create) return NULL;
            b->check = h2;
            b->h1 = h1;
            b->head = -1;
            s->tused++;
            return b;
        }
        i = (i + 1) & s->ttmask;
    }
}

/* Column mode's table: each probe is a cache miss, and on 4 KB pages most also miss the TLB
 * (a 64 MB table spans 16384 pages).  On Linux a large table is mapped on 2 MB boundaries and
 * offered to the kernel as huge pages (taken when transparent huge pages are on or on request;
 * measured: a sixth less time on Open Whist par); zeroed pages are mapped as they are used
 * either way.  Elsewhere calloc. */
#define HUGE_ALIGN ((size_t)2 << 20)
static size_t ctab_bytes(uint64_t cmask) { return (size_t)(cmask + 1) * WAYS * sizeof(Slot); }

static int ctab_alloc(Solver *s) {
    size_t n = ctab_bytes(s->cmask);
    /* the Zobrist values (column_h1): fixed pseudo-random numbers (splitmix64); only the
     * spread of positions over the sets depends on them, never a value */
    uint64_t z = 0x2545f4914f6cdd1dULL;
    for (int su = 0; su < NSUITS; su++)
        for (int r = 0; r < 16; r++) s->zcard[su][r] = mix64(z += 0x9e3779b97f4a7c15ULL);
    for (int p = 0; p < MAXSEATS; p++) s->zlead[p] = mix64(z += 0x9e3779b97f4a7c15ULL);
    /* (column_sure_counts: without it the counts are worked out each time) */
    if (s->trump >= 0 && s->nseats == 4 && !s->spare_dealt) {
        s->csure = malloc(sizeof(uint16_t) << 16);
        if (s->csure) memset(s->csure, 0xff, sizeof(uint16_t) << 16);
    }
#if defined(__linux__) && defined(MAP_ANONYMOUS)
    void *raw = mmap(NULL, n + HUGE_ALIGN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                     -1, 0);
    if (raw == MAP_FAILED) return -1;
    s->ctab_raw = raw;
    s->ctab = (Slot *)(((uintptr_t)raw + HUGE_ALIGN - 1) & ~(uintptr_t)(HUGE_ALIGN - 1));
#ifdef MADV_HUGEPAGE
    /* (a huge page is zeroed whole when first touched: not worth it for a small table) */
    if (n >= ((size_t)32 << 20)) madvise(s->ctab, n, MADV_HUGEPAGE);
#endif
#else
    s->ctab_raw = calloc(n + 64, 1);
    if (!s->ctab_raw) return -1;
    s->ctab = (Slot *)(((uintptr_t)s->ctab_raw + 63) & ~(uintptr_t)63);
#endif
    return 0;
}

static void ctab_free(Solver *s) {
    free(s->csure);
    s->csure = NULL;
    if (!s->ctab_raw) return;
#if defined(__linux__) && defined(MAP_ANONYMOUS)
    munmap(s->ctab_raw, ctab_bytes(s->cmask) + HUGE_ALIGN);
#else
    free(s->ctab_raw);
#endif
    s->ctab_raw = NULL;
    s->ctab = NULL;
}

static inline const Slot *ctab_find(const Solver *s, uint64_t h1, uint64_t check, uint32_t jl) {
    const Slot *set = &s->ctab[(h1 & s->cmask) * WAYS];
    for (int i = 0; i < WAYS; i++)
        if (set[i].check == check && set[i].jl == jl) return &set[i];
    return NULL;
}

static void store_exact(Solver *s, uint64_t h1, uint64_t check, uint32_t jl, int R, int lb,
                        int ub, int bsuit, int brel) {
    Slot *set = &s->ctab[(h1 & s->cmask) * WAYS];
    Slot *x = NULL, *victim = &set[0];
    for (int i = 0; i < WAYS && !x; i++) {
        if (set[i].check == check && set[i].jl == jl) x = &set[i];
        else if (set[i].jl == 0) {
            if (victim->jl) victim = &set[i];
        } else if (victim->jl && (set[i].jl >> 24) < (victim->jl >> 24)) {
            victim = &set[i];
        }
    }
    if (!x) {
        x = victim;
        x->check = check;
        x->jl = jl;
        x->lb = 0;
        x->ub = 127;
    }
    merge_bounds(s, &x->lb, &x->ub, R, lb, ub);
    x->bsuit = (int8_t)bsuit;
    x->brel = (int8_t)brel;
}

static void store(Solver *s, uint64_t h1, uint64_t h2, const uint32_t own[4],
                  const uint16_t rem[NSUITS], const uint16_t W[4], int R, int lb, int ub,
                  int bsuit, int brel) {
    uint8_t depth[4];
    uint32_t mown[4], mk[4];
    for (int su = 0; su < 4; su++) {
        unsigned w = W[su] & rem[su];
        int d = 0;
        if (s->columns) d = 0;
        else if (s->off & OFF_PARTIAL_KEYS) d = popc(rem[su]);
        else if (w) d = popc(rem[su] >> __builtin_ctz(w));
        depth[su] = (uint8_t)d;
        mk[su] = top_mask(d);
        mown[su] = own[su] & mk[su];
    }
    uint64_t pown[2];
    pack_own(mown, pown);
    if (s->tused * 4 >= (s->ttmask + 1) * 3 && !tt_grow(s)) tt_clear(s);
    if (s->pused >= s->npool && !pool_grow(s)) tt_clear(s);
    Bucket *b = bucket_find(s, h1, h2, 1);
    Chunk *sch = NULL; /* the entry for exactly these owners and depths: chunk and index */
    int si = -1;
    int32_t tail = -1, before_tail = -1;
    int nchunks = 0;
    for (int32_t c = b->head; c >= 0 && !sch; c = s->pool[c].next) {
        Chunk *ch = &s->pool[c];
        before_tail = tail;
        tail = c;
        nchunks++;
        for (int i = 0; i < ch->n; i++)
            if (ch->own0[i] == pown[0] && ch->own1[i] == pown[1] &&
                memcmp(ch->depth[i], depth, 4) == 0) {
                sch = ch;
                si = i;
                break;
            }
    }
    if (!sch) {
        if (b->head < 0 || s->pool[b->head].n == CHUNK) {
            int32_t c;
            if (nchunks >= MAXCHAIN && before_tail >= 0) {
                /* a long chain costs every probe of this signature a long scan: recycle its
                 * oldest chunk as the new head (those entries are forgotten) */
                s->pool[before_tail].next = -1;
                c = tail;
            } else {
                c = s->pused++;
            }
            s->pool[c].n = 0;
            s->pool[c].next = b->head;
            b->head = c;
        }
        sch = &s->pool[b->head];
        si = sch->n++;
        memcpy(sch->depth[si], depth, 4);
        sch->own0[si] = pown[0];
        sch->own1[si] = pown[1];
        uint64_t pmask[2];
        pack_own(mk, pmask);
        sch->mask0[si] = pmask[0];
        sch->mask1[si] = pmask[1];
        sch->lb[si] = 0;
        sch->ub[si] = 127;
    }
    merge_bounds(s, &sch->lb[si], &sch->ub[si], R, lb, ub);
    sch->bsuit[si] = (int8_t)bsuit;
    sch->brel[si] = (int8_t)brel;
}

static inline void wclear(uint16_t W[4]) { W[0] = W[1] = W[2] = W[3] = 0; }

/* The last trick, each hand holding one card (no spare cards): play it out. */
static int play_last_trick(Solver *s, int seat, int won, int target, uint16_t W[4]) {
    for (int i = 0; i < s->nseats; i++) {
        int p = (seat + i) % s->nseats;
        for (int su = 0; su < NSUITS; su++)
            if (s->hand[p][su]) {
                s->tsuit[i] = su;
                s->trank[i] = hibit(s->hand[p][su]);
                s->tseat[i] = p;
                break;
            }
    }
    s->tcnt = s->nseats;
    s->trick_nodes++;
    int widx = trick_winner_index(s);
    add_rank_winner(s, widx, W);
    int w = s->tseat[widx];
    s->tcnt = 0;
    return won + s->side[w] >= target;
}

/* The table probe at a trick start: the key (h1, h2; own and rem for the store) and a hint for
 * the move order (bsuit, brel, left alone when no entry has one).  Returns 1 or 0 when an
 * entry's bounds settle the target (W: the cards down to the entry's depth in each suit), -1
 * otherwise. */
static inline int tt_probe(Solver *s, int seat, int won, int target, int R, uint32_t own[4],
                           uint16_t rem[NSUITS], uint64_t *h1, uint64_t *h2, int *bsuit,
                           int *brel, uint16_t W[4]) {
    /* the owners string is kept trick by trick (drop_relative) */
    for (int su = 0; su < NSUITS; su++) rem[su] = s->deck[su] & (uint16_t)~s->gone[su];
    if (s->columns) {
        /* column mode: one exact entry (no owners string, no chains) */
        *h1 = column_h1(s, s->zhand, seat);
        *h2 = column_check(rem);
        const Slot *x = ctab_find(s, *h1, *h2, column_jl(rem[JOKER], seat, R));
        if (x) {
            int lb, ub;
            bounds_for_max(s, x->lb, x->ub, R, &lb, &ub);
            if (won + lb >= target) return 1;
            if (won + ub < target) return 0;
            if (x->bsuit >= 0) {
                *bsuit = x->bsuit;
                *brel = x->brel;
            }
        }
        return -1;
    }
    for (int su = 0; su < 4; su++) own[su] = s->rown[su];
#ifdef DD_CHECK_OWNERS
    {
        uint32_t o2[4];
        uint16_t r2[NSUITS];
        owners(s, o2, r2);
        if (memcmp(o2, own, sizeof(o2)) || memcmp(r2, rem, sizeof(r2))) abort();
    }
#endif
    key_hash(s, seat, R, own, rem, h1, h2);
    /* Newest entries first; the first one whose bound alone settles the target ends the
     * scan (a cut-off never needs two entries' bounds together). */
    uint64_t pown[2];
    pack_own(own, pown);
    const uint8_t *cut = NULL; /* the depths of the entry that settles it */
    int cutres = 0;
    const Bucket *bk = bucket_find(s, *h1, *h2, 0);
    for (int32_t c = bk ? bk->head : -1; c >= 0 && !cut; c = s->pool[c].next) {
        const Chunk *ch = &s->pool[c];
        for (unsigned hits = chunk_matches(ch, pown); hits;) {
            int i = hibit(hits); /* newest first within the chunk too */
            hits &= ~(1u << i);
            int lb, ub;
            bounds_for_max(s, ch->lb[i], ch->ub[i], R, &lb, &ub);
            if (won + lb >= target) { cut = ch->depth[i]; cutres = 1; break; }
            if (won + ub < target) { cut = ch->depth[i]; cutres = 0; break; }
            if (ch->bsuit[i] >= 0 && *bsuit < 0) { *bsuit = ch->bsuit[i]; *brel = ch->brel[i]; }
        }
    }
    if (cut) {
        for (int su = 0; su < 4; su++) W[su] = (uint16_t)top_cards(rem[su], cut[su]);
        return cutres;
    }
    return -1;
}

/* Quick tricks of the side on lead (side_quick_tricks; column_quick_tricks in column mode):
 * 1 or 0 when they settle the target, W the cashed cards trimmed to what the cut-off needs
 * (none in column mode); else -1, W clear. */
static inline int quick_trick_cutoff(const Solver *s, int seat, int won, int target, int R,
                                     uint16_t W[4]) {
    if (s->columns) {
        int q = column_quick_tricks(s, seat, 0);
        if (s->side[seat] ? won + q >= target : won + R - q < target) return s->side[seat];
        return -1;
    }
    int entry, extra, keep;
    int q = side_quick_tricks(s, seat, W, &entry, &extra, &keep,
                              s->side[seat] ? target - won : won + R - target + 1);
    if (s->side[seat]) {
        if (won + q >= target) {
            if (!keep) trim_quick_w(s, W, target - won - extra, entry);
            return 1;
        }
    } else {
        if (won + R - q < target) {
            if (!keep) trim_quick_w(s, W, won + R - target + 1 - extra, entry);
            return 0;
        }
    }
    wclear(W);
    return -1;
}

/* Sure trump tricks of each side (sure[side]): those of its best hand (hand_sure_trumps), with
 * sk[side] and sw[side] as that function gives them, raised to two by the 'two best trumps
 * split' rule below. */
static inline void side_sure_trumps(const Solver *s, int R, int sure[2], int sk[2],
                                    uint16_t sw[2]) {
    if (s->columns && s->nseats == 4) {
        /* column mode: the counts alone (no ranks are recorded there; the split rule is off) */
        unsigned c = column_sure_counts(s);
        for (int p = 0; p < 4; p++) {
            int x = (int)(c >> (4 * p)) & 15;
            if (x > sure[s->side[p]]) sure[s->side[p]] = x;
        }
        return;
    }
    for (int p = 0; p < s->nseats; p++) {
        uint16_t m;
        int k, c = hand_sure_trumps(s, p, R, &m, &k);
        if (c > sure[s->side[p]]) {
            sure[s->side[p]] = c;
            sk[s->side[p]] = k;
            sw[s->side[p]] = m;
        }
    }
    if (!(s->off & OFF_SPLIT_TRUMPS) && !s->spare && !s->columns) {
        /* The two best trumps in two hands of one side, one of them holding another
         * trump: two tricks.  Each wins the trick it is played to unless the other
         * one falls on the same trick.  Let the side play either at the first trick
         * where one of them may legally be played (and not both): until then neither
         * hand has played a trump at all (any trick it plays a trump to would allow
         * its honour), so both are forced together only if each hand's trumps are
         * the honour alone.  The rule needs the owners of the two best trumps and
         * the lengths (in the key).  Not in column mode, where a buried honour
         * cannot be played at will, nor with spare cards (it may never be played). */
        unsigned t = s->deck[s->trump] & ~(unsigned)s->gone[s->trump];
        if (popc(t) >= 2) {
            int a = hibit(t), b = hibit(t & ~(1u << a));
            int x = s->owner[s->trump][a], y = s->owner[s->trump][b];
            int sd = s->side[x];
            if (x != y && s->side[y] == sd && sure[sd] < 2 &&
                (seat_len(s, x, s->trump) > 1 || seat_len(s, y, s->trump) > 1)) {
                sure[sd] = 2;
                sk[sd] = 0;
                sw[sd] = (uint16_t)((1u << a) | (1u << b));
            }
        }
    }
}

/* Cut-offs from sure trump tricks (trumps in play): either side's sure trumps alone, or the
 * leader's side-suit winners followed by its sure trumps.  1 or 0 with W set, or -1 with W
 * untouched (clear). */
static inline int sure_trump_cutoff(const Solver *s, int seat, int won, int target, int R,
                                    uint16_t W[4]) {
    int sure[2] = {0, 0}, sk[2] = {0, 0};
    uint16_t sw[2] = {0, 0};
    side_sure_trumps(s, R, sure, sk, sw);
    /* only as many of those trumps as the cut-off needs go into W */
    if (sure[1] && won + sure[1] >= target) {
        W[s->trump] = (uint16_t)top_cards(sw[1], target - won + sk[1]);
        return 1;
    }
    if (sure[0] && won + R - sure[0] < target) {
        W[s->trump] = (uint16_t)top_cards(sw[0], won + R - target + 1 + sk[0]);
        return 0;
    }
    int me = s->side[seat];
    int need = me ? target - won : won + R - target + 1; /* tricks for the leader's side */
    if (!(s->off & OFF_CASH_THEN_TRUMPS) && !s->columns && !s->spare && s->nseats == 4 &&
        sure[me] && need > sure[me]) {
        /* The leader cashes its side-suit winners first (no more than the
         * opponents who can ruff can follow, partner never forced to ruff: see
         * quick_tricks), then its side's sure trump tricks follow in other tricks:
         * neither hand played a trump to the cashed tricks.  W: the cashed cards
         * (trimmed as for quick tricks) and the trumps counted. */
        uint16_t QW[4];
        int first, qs = 0;
        quick_tricks(s, seat, QW, &first, 0);
        QW[s->trump] = 0;
        for (int su = 0; su < 4; su++) qs += popc(QW[su]);
        if (qs && qs + sure[me] >= need) {
            trim_quick_w(s, QW, qs, -1);
            for (int su = 0; su < 4; su++) W[su] = QW[su];
            W[s->trump] = (uint16_t)top_cards(sw[me], need - qs + sk[me]);
            return me;
        }
    }
    if (!(s->off & OFF_CASH_THEN_TRUMPS) && s->columns && sure[me] && need > sure[me] &&
        column_quick_tricks(s, seat, 1) + sure[me] >= need)
        /* Column mode: the leader cashes side-suit winners (column_quick_tricks: every other
         * trump holder follows suit to them), so no hand plays a trump to those tricks and
         * the side's sure trumps still make as many other tricks.  (Measured on the Open
         * Whist par boards: 1% fewer nodes.) */
        return me;
    return -1;
}

/* The leader's side needs every trick left (checked by the caller, as are the conditions
 * below), yet loses this one whatever is led: in each suit the leader holds, an opponent holds
 * the best card (and plays it), and no other hand of the leader's side can ruff instead (it
 * follows suit or has no trumps).  The rule needs the owner of each such suit's best card (W)
 * and the lengths (in the key).  Not with jokers in the leader's hand (a joker led lets the
 * next hand choose the suit), spare cards or columns (a buried card cannot be played).
 * Returns the opponents' result with W set, or -1 with W untouched. */
static inline int lead_lost_cutoff(const Solver *s, int seat, const uint16_t rem[NSUITS],
                                   uint16_t W[4]) {
    int lost = 1;
    uint16_t LW[4] = {0, 0, 0, 0};
    for (int su = 0; su < 4 && lost; su++) {
        if (!s->hand[seat][su]) continue;
        int t = hibit(rem[su]);
        if (s->side[s->owner[su][t]] == s->side[seat]) { lost = 0; break; }
        LW[su] = (uint16_t)(1u << t);
        if (s->trump >= 0 && su != s->trump)
            for (int p = 0; p < s->nseats; p++)
                if (p != seat && s->side[p] == s->side[seat] && !s->hand[p][su] &&
                    s->hand[p][s->trump])
                    lost = 0;
    }
    if (lost) {
        for (int su = 0; su < 4; su++) W[su] = LW[su];
        return !s->side[seat];
    }
    return -1;
}

/* A hand p holding a trump beaten only by trumps of the hand on its right (rho, who plays just
 * before p at every trick that p does not lead), with more trumps than rho holds above it
 * (K x over the ace): p's side wins a trick.  Until p's side wins one, p never leads except
 * now, when p may be the leader; so whenever p must play a trump (trumps led, or p holding
 * nothing else), rho has played to the trick already: if rho played one of its higher trumps,
 * p plays a small one (p has enough of them: its trumps get fewer only this way), and once
 * rho's higher trumps are gone p's best is the best trump left and wins when played; if rho
 * did not, p plays its best, which no later card of the trick can beat.  The leader leads a
 * card other than a trump if it has one, else a small trump, which it can spare only with a
 * trump more than that.  Used when p's side needs one trick (the leader's side needing every
 * trick left, or just one): the rule needs the owners of the trumps down to p's best (W) and
 * the lengths (in the key).  Classic four hands with trumps, no spare cards and no joker in
 * play, which would beat p's trump from any hand (checked by the caller).  Returns p's side's
 * result, or -1 (W untouched). */
static inline int trump_over_cutoff(const Solver *s, int seat, int all, const uint16_t rem[NSUITS],
                                    uint16_t W[4]) {
    int tr = s->trump;
    unsigned t = rem[tr];
    if (!t) return -1;
    int x = s->owner[tr][hibit(t)], above = 0;
    while (t && s->owner[tr][hibit(t)] == x) {
        t &= ~(1u << hibit(t));
        above++;
    }
    if (!t) return -1;
    int p = s->owner[tr][hibit(t)];
    if (x != ((p + 3) & 3)) return -1; /* (p is x's partner, or x is not on p's right) */
    int len = seat_len(s, p, tr);
    if (len <= above) return -1;
    int mine = s->side[p] == s->side[seat];
    if (mine ? all : !all) return -1; /* p's side needs more than one trick */
    if (p == seat && len == above + 1 && hand_len(s, p) == len) return -1;
    W[tr] = (uint16_t)top_cards(rem[tr], above + 1);
    return s->side[p];
}

/* The leader's side needs every trick left, with no trump in play (checked by the caller, as
 * are the other conditions): it must lead every trick, each time in a suit whose best
 * remaining card it holds (else the opponent holding that card plays it and wins).  Each lead
 * of a suit takes one card of it from each hand of the side still holding some, so a suit the
 * side controls now yields at most as many leads as its longer hand there; the sum over those
 * suits must reach the tricks left.  A suit the opponents control now can be led only after
 * they throw its best card, which a defender has to do only when its cards are all best cards
 * of their suits (so at most 3, one a suit), and it then keeps those the hand on lead could
 * use.  That last step is argued, not proven in general: the bound (DDS relies on the same
 * one) was checked against a full search on 2.3 million random endings where it applies (many
 * built with such defenders), with no counter-example.  The rule needs the owner of the best
 * card of each suit the opponents control (W; none when that opponent holds the whole suit)
 * and the lengths (in the key).  Returns the opponents' result with W set, or -1 with W
 * untouched. */
static inline int lead_capacity_cutoff(const Solver *s, int seat, int R,
                                       const uint16_t rem[NSUITS], uint16_t W[4]) {
    uint16_t LW[4];
    if (lead_capacity(s, seat, rem, LW) < R) {
        for (int su = 0; su < 4; su++) W[su] = LW[su];
        return !s->side[seat];
    }
    return -1;
}

/* Column mode: must hand p play a trump to a trick led in su (it has no exposed card of su,
 * and every card it has exposed is a trump)? */
static inline int column_must_trump(const Solver *s, int p, int su) {
    if (s->expo[p][su]) return 0;
    for (int x = 0; x < NSUITS; x++)
        if (x != s->trump && s->expo[p][x]) return 0;
    return 1;
}

/* Column mode with trumps, a side needing `need` tricks (need_me for the leader's side, the
 * other side the rest): this trick, won with a card of the suit led, and then its sure trump
 * tricks (hand_sure_trumps, of its best hand h).  Those trumps stay sure: h plays no trump to
 * this trick (it follows suit, or has a card other than a trump to throw), and the other
 * side's trumps can only get fewer.  The other side wins the trick whatever the leader leads
 * when, in each suit the leader has exposed (no trump among them), it has an exposed card
 * above every exposed card of the suit of the leader's side and no other hand of the leader's
 * side can ruff; the leader's side wins it when some lead of a side suit does (as in
 * column_lead_won, without the ruff).  (Measured on the Open Whist par boards: 5% fewer
 * nodes.)  Returns the side's result, or -1. */
static int column_trick_then_trumps(const Solver *s, int seat, int R, int need_me) {
    int me = s->side[seat], tr = s->trump;
    int need_them = R - need_me + 1;
    /* first the trick, which is cheap to read: the suits the leader has exposed (lost) or
     * the side-suit leads that win (won); then the sure trumps */
    int lost = need_them >= 2 && !s->expo[seat][JOKER] && !s->expo[seat][tr];
    unsigned won = 0;
    for (int su = 0; su < 4 && lost; su++) {
        if (!s->expo[seat][su]) continue;
        if (column_side_best(s, !me, su) <= column_side_best(s, me, su)) lost = 0;
        for (int p = 0; p < s->nseats && lost; p++)
            if (p != seat && s->side[p] == me && column_may_ruff(s, p, su)) lost = 0;
    }
    for (int su = 0; su < 4 && need_me >= 2; su++) {
        if (su == tr || !s->expo[seat][su]) continue;
        int ours = column_side_best(s, me, su), w = 1;
        for (int p = 0; p < s->nseats && w; p++) {
            if (s->side[p] == me) continue;
            unsigned e = s->expo[p][su];
            if (e ? (int)hibit(e) > ours : column_may_ruff(s, p, su)) w = 0;
        }
        if (w) won |= 1u << su;
    }
    if (!lost && !won) return -1;
    int best[2] = {0, 0}, who[2] = {-1, -1};
    unsigned counts = column_sure_counts(s);
    for (int p = 0; p < s->nseats; p++) {
        int c = (int)(counts >> (4 * p)) & 15;
        if (c > best[s->side[p]]) {
            best[s->side[p]] = c;
            who[s->side[p]] = p;
        }
    }
    if (lost && best[!me] + 1 >= need_them) {
        for (int su = 0; su < 4 && lost; su++)
            if (s->expo[seat][su] && column_must_trump(s, who[!me], su)) lost = 0;
        if (lost) return !me;
    }
    if (won && best[me] + 1 >= need_me)
        for (int su = 0; su < 4; su++)
            if ((won >> su & 1) && (who[me] == seat || !column_must_trump(s, who[me], su)))
                return me;
    return -1;
}

/* Column mode with trumps, second or third hand of four whose side needs need2 >= 2 tricks,
 * this one included: it surely wins this trick with a card of the suit led (column_trick_won,
 * no ruff), and its best hand h for sure trump tricks has need2 - 1 of them that it does not
 * spend on this trick (h has played to it already, or plays a card of the suit led other
 * than trumps, or has a card other than a trump to throw).  (Measured on the Open Whist par
 * boards: 3% fewer nodes.)  Returns the side's result, or -1. */
static int column_trick_then_sure(const Solver *s, int seat, int need2) {
    if (column_trick_won(s, seat, 1) < 0) return -1; /* the cheaper test first */
    int me = s->side[seat], best = 0, h = -1, L = cur_led(s);
    unsigned counts = column_sure_counts(s);
    for (int p = 0; p < s->nseats; p++) {
        if (s->side[p] != me) continue;
        int c = (int)(counts >> (4 * p)) & 15;
        if (c > best) {
            best = c;
            h = p;
        }
    }
    if (best + 1 < need2) return -1;
    int pending = h == seat || (s->tcnt == 1 && h == ((seat + 2) & 3));
    if (pending && (L == s->trump || column_must_trump(s, h, L))) return -1;
    return me;
}

/* Column mode: the leader's cards above every card of their suit left in the other hands.
 * column_quick_tricks counts no other card (the other hands' cards do not change while it
 * cashes), so this is a bound on its count, cheap to read. */
static inline int column_top_count(const Solver *s, int leader) {
    int c = 0;
    for (int su = 0; su < 4; su++) {
        unsigned mine = s->hand[leader][su];
        if (!mine) continue;
        unsigned others = s->deck[su] & ~(unsigned)s->gone[su] & ~mine;
        c += popc(others ? mine & ~((2u << hibit(others)) - 1) : mine);
    }
    return c;
}

/* Column mode's cut-offs at a trick start (trick_start_cutoffs gives them their turn): the
 * same rules as there, tried cheapest first.  Each settles the target only when its answer is
 * the true one, so the order changes which rule answers, never the answer, and in column mode
 * nothing else depends on the rule (no ranks are recorded): the nodes are the same.  On the
 * Open Whist par boards, of the trick starts that reach them, about a sixth are settled by the
 * sure trump counts alone (now a table read), a fifth by the lead won or lost, and more than
 * half by none, which pay for every rule; the quick tricks settle some 6% and are the dearest,
 * so they come after those, and are skipped when the leader's top cards cannot give enough. */
static int column_start_cutoffs(const Solver *s, int seat, int won, int target, int R) {
    int me = s->side[seat], v;
    /* tricks the leader's side needs: every rule below settles it for that side when that
     * side surely makes them */
    int need = me ? target - won : won + R - target + 1;
    int sure[2] = {0, 0}, sk[2] = {0, 0};
    uint16_t sw[2] = {0, 0};
    int trumps = s->trump >= 0 && !(s->off & OFF_SURE_TRUMPS);
    if (trumps) {
        side_sure_trumps(s, R, sure, sk, sw);
        if (sure[1] && won + sure[1] >= target) return 1;
        if (sure[0] && won + R - sure[0] < target) return 0;
    }
    if (need == R && !(s->off & OFF_LEAD_LOST) && (v = column_lead_lost(s, seat)) >= 0) return v;
    if (need == 1 && !(s->off & OFF_LEAD_WON) && !s->spare && (v = column_lead_won(s, seat)) >= 0)
        return v;
    int top = column_top_count(s, seat);
    if (!(s->off & OFF_QUICK) && top >= need && column_quick_tricks(s, seat, 0) >= need) return me;
    if (trumps && !(s->off & OFF_CASH_THEN_TRUMPS) && sure[me] && need > sure[me] &&
        top + sure[me] >= need && column_quick_tricks(s, seat, 1) + sure[me] >= need)
        return me; /* see sure_trump_cutoff */
    if (s->trump >= 0 && !s->spare && !(s->off & OFF_TRICK_THEN_TRUMPS) &&
        (v = column_trick_then_trumps(s, seat, R, need)) >= 0)
        return v;
    return -1;
}

/* The cut-offs tried at a trick start after the table probe (W clear on entry): 1 or 0 when
 * one settles the target, W the cards it relied on; -1 when none does, W clear. */
static int trick_start_cutoffs(const Solver *s, int seat, int won, int target, int R,
                               const uint16_t rem[NSUITS], uint16_t W[4]) {
    int v;
    if (s->columns) return column_start_cutoffs(s, seat, won, target, R);
    if (!(s->off & OFF_QUICK) && (v = quick_trick_cutoff(s, seat, won, target, R, W)) >= 0)
        return v;
    if (s->trump >= 0 && !(s->off & OFF_SURE_TRUMPS) &&
        (v = sure_trump_cutoff(s, seat, won, target, R, W)) >= 0)
        return v;
    /* the leader's side needs every trick left */
    int all = s->side[seat] ? target - won == R : target - won == 1;
    if (all && !(s->off & OFF_LEAD_LOST) && !s->spare && !s->columns && !s->hand[seat][JOKER] &&
        (v = lead_lost_cutoff(s, seat, rem, W)) >= 0)
        return v;
    if (all && !(s->off & OFF_LEAD_LOST) && s->columns && (v = column_lead_lost(s, seat)) >= 0)
        return v;
    /* the leader's side needs one trick */
    int one = s->side[seat] ? target - won == 1 : won + R - target + 1 == 1;
    if ((all || one) && s->trump >= 0 && !(s->off & OFF_TRUMP_OVER) && !s->spare &&
        !s->columns && s->nseats == 4 && !rem[JOKER] &&
        (v = trump_over_cutoff(s, seat, all, rem, W)) >= 0)
        return v;
    if (one && !(s->off & OFF_LEAD_WON) && s->columns && !s->spare &&
        (v = column_lead_won(s, seat)) >= 0)
        return v;
    if (s->columns && s->trump >= 0 && !s->spare && !(s->off & OFF_TRICK_THEN_TRUMPS) &&
        (v = column_trick_then_trumps(s, seat, R, s->side[seat] ? target - won
                                                                : won + R - target + 1)) >= 0)
        return v;
    if (all && !(s->off & OFF_LEAD_CAPACITY) && (s->trump < 0 || !rem[s->trump]) &&
        s->nseats == 4 &&
        !s->spare && !s->columns && !rem[JOKER] &&
        (v = lead_capacity_cutoff(s, seat, R, rem, W)) >= 0)
        return v;
    return -1;
}

/* Hand h, on lead after winning the current trick, cashes its cards above every card of
 * their suit left in the other hands (with trumps in play, notr == 0: its top trumps only,
 * side suits might be ruffed), not counting the card xbit of suit xsu (the one winning the
 * trick, still in its hand).  Returns how many of the `more` tricks wanted are still
 * missing (<= 0: all made); W gets the cards counted, none in a suit no other hand holds
 * (the lengths say so; measured: ranks there made the search larger than no rule at all). */
static inline int cash_top_cards(const Solver *s, int h, int notr, int xsu, unsigned xbit,
                                 int more, uint16_t W[4]) {
    for (int su = 0; su < 4 && more > 0; su++) {
        if (!notr && su != s->trump) continue; /* at trumps only top trumps */
        unsigned mine = s->hand[h][su] & ~(su == xsu ? xbit : 0u);
        unsigned oth = 0;
        for (int p = 0; p < 4; p++)
            if (p != h) oth |= s->hand[p][su];
        unsigned top = oth ? mine & ~((2u << hibit(oth)) - 1) : mine;
        int c = popc(top);
        if (!c) continue;
        if (c > more) c = more;
        if (oth) W[su] |= (uint16_t)top_cards(top, c);
        more -= c;
    }
    return more;
}

/* Second hand (the caller checks the conditions), whose side needs need2 tricks, this one
 * included: its side's result when the rule below settles it, W set; else -1, W clear. */
static int second_hand_cutoff(const Solver *s, int seat, int need2, uint16_t W[4]) {
    /* Second hand, whose side needs just this trick (or one of the tricks left, the
     * current one included): it wins the trick for sure when its side holds a card of
     * the suit led above the card led and above every card of it that the third hand
     * holds (second hand plays it now, or fourth hand plays it last), unless the third
     * hand can ruff; or when second or fourth hand can ruff while the third hand must
     * follow suit.  The rule needs the rank of that winning card (W), or none for a
     * ruff (lengths are in the key). */
    int L = cur_led(s), tr = s->trump;
    int third = (seat + 1) & 3, fourth = (seat + 2) & 3;
    unsigned l3 = s->hand[third][L];
    /* (third hand holding the suit led may still ruff if it can put those cards aside) */
    int third_ruffs = tr >= 0 && L != tr && s->hand[third][tr] && (!l3 || can_drop(s, third, L));
    unsigned ours = s->hand[seat][L] | s->hand[fourth][L];
    int hi = ours ? hibit(ours) : -1;
    int win = 0;
    if (!third_ruffs && hi > s->trank[0] && (!l3 || hi > hibit(l3))) {
        win = 1;
        W[L] = (uint16_t)(1u << hi);
        if (need2 > 1) {
            /* The hand winning it then leads, and cashes its cards above every card
             * of their suit left in the other hands (in the suit led, below its winning
             * card): the side's tricks needed beyond this one.  With trumps in play,
             * only its top trumps (side suits might be ruffed), and only if its partner
             * need not ruff this trick (it holds the suit led or a non-trump).  W: those
             * cards, or none in a suit no other hand holds (see cash_top_cards). */
            int h = s->owner[L][hi];
            int notr = tr < 0 || !(s->deck[tr] & ~s->gone[tr]);
            int hp = h == seat ? fourth : seat; /* the winner's partner */
            if (!notr && !s->hand[hp][L] && hand_len(s, hp) == seat_len(s, hp, tr))
                win = 0; /* partner, void, would have to ruff the trick */
            else if (!notr && popc(s->hand[h][tr] & ~(L == tr ? 1u << hi : 0u)) < need2 - 1)
                win = 0; /* fewer trumps than tricks to cash: cash_top_cards would say so */
            else if (cash_top_cards(s, h, notr, L, 1u << hi, need2 - 1, W) > 0)
                win = 0;
        }
    } else if (need2 <= 1 && tr >= 0 && L != tr && l3 && !can_drop(s, third, L) &&
               ((!s->hand[seat][L] && s->hand[seat][tr]) ||
                (!s->hand[fourth][L] && s->hand[fourth][tr]))) {
        win = 1;
    }
    if (win) return s->side[seat];
    wclear(W);
    return -1;
}

/* Third hand (the caller checks the conditions), whose side needs need2 tricks, this one
 * included: its side's result when the rule below settles it, W set; else -1, W clear. */
static int third_hand_cutoff(const Solver *s, int seat, int need2, uint16_t W[4]) {
    /* Third hand, whose side needs this trick (and perhaps more): it is won for
     * sure when partner's card now winning cannot be beaten by fourth hand, or when
     * third hand holds a card of the suit led above the winning card and above all of
     * fourth hand's, fourth hand having to follow suit or holding no trump.  W: the
     * rank of the card that wins, when it was compared with another of its suit. */
    int L = cur_led(s), tr = s->trump;
    int w = cur_winner(s), ws = s->tsuit[w], wr = s->trank[w];
    int fourth = (seat + 1) & 3;
    unsigned l4 = s->hand[fourth][L];
    unsigned t4 = tr >= 0 ? s->hand[fourth][tr] : 0;
    int can_ruff4 = tr >= 0 && L != tr && t4 && (!l4 || can_drop(s, fourth, L));
    int win = 0, h = -1, hc = -1;
    if (s->side[s->tseat[w]] == s->side[seat]) {
        /* Partner, the leader, is winning: its card fixed the suit led (after a led joker
         * the suit comes from second hand's card, which then wins), so ws == L here. */
        if (ws == L) {
            win = !(l4 >> (wr + 1)) && !can_ruff4;
            if (win && (l4 || s->tsuit[1 - w] == L)) W[ws] = (uint16_t)(1u << wr);
        }
        h = s->tseat[w];
    } else if (ws == L && !can_ruff4) {
        unsigned m = s->hand[seat][L];
        int hi = m ? hibit(m) : -1;
        if (hi > wr && (!l4 || hi > hibit(l4))) {
            win = 1;
            W[L] = (uint16_t)(1u << hi);
            h = seat;
            hc = hi;
        }
    }
    if (win && need2 > 1) {
        /* the rest: top trumps of the winning hand (it then leads and cashes them), or
         * with no trump in play top cards of any suit; none needs a rank in a suit no
         * other hand holds (as for second hand) */
        int notr = tr < 0 || !(s->deck[tr] & ~s->gone[tr]);
        win = 0;
        /* when partner's card wins, third hand must not have to take the trick from
         * it: not by following with a higher card only, nor by a forced ruff (it
         * holds the suit led or a non-trump) */
        unsigned l3 = s->hand[seat][L];
        int keeps = h == seat ||
                    ((!l3 || ws != L || (l3 & ((1u << wr) - 1))) &&
                     (notr || l3 || hand_len(s, seat) > seat_len(s, seat, tr)));
        /* With trumps in play only the winning hand's top trumps count, so with fewer
         * trumps than the tricks wanted cash_top_cards need not be asked: it would say no.
         * (It was asked 1.55M times on 120 random deals of every strain and said yes 15k
         * times; this test gives the same answers, hence the same nodes, for 0.4% fewer
         * instructions in all, and its twin in second_hand_cutoff 0.2% more.) */
        if (keeps && !notr &&
            popc(s->hand[h][tr] & ~(ws == tr && hc >= 0 ? 1u << hc : 0u)) < need2 - 1)
            keeps = 0;
        if (keeps)
            win = cash_top_cards(s, h, notr, ws, hc >= 0 ? 1u << hc : 0u, need2 - 1, W) <= 0;
    }
    if (win) return s->side[seat];
    wclear(W);
    return -1;
}

/* Column mode, last card of a trick: each move starts the next trick with a table probe that
 * misses the cache.  Ask for all their sets now, so the misses overlap; then read them, and
 * when the first move's is not already a win for the mover but a later one's is (its entry's
 * bounds, or the trick itself, settle the target), move that one to the front: its search is
 * a table hit (an enhanced transposition cut-off; measured: 7% fewer nodes on the Open Whist
 * par boards).  known[i] gets what was read for the move now at i, up to that one: 1 or 0
 * when settled (+2 when by the table: the search of that position would count a node and
 * stop at its probe), -1 when not (the rest: -1).  The search loop takes a settled move's
 * result from there instead of playing it (a bound read here stays true however the table
 * changes later, so the values are the same). */
static inline void prefetch_next_probes(const Solver *s, int seat, Move *mv, int n, int won,
                                        int target, int R, int8_t *known) {
    const uint16_t *rem = s->inhand; /* (the cards not yet played) */
    uint64_t k1[MAXHAND * 2];
    int8_t lead[MAXHAND * 2];
    int k = s->tcnt, w = s->twin[k];
    for (int i = 0; i < n; i++) {
        int su = mv[i].su, r = mv[i].r;
        int wins = su == s->tsuit[w] ? r > s->trank[w] : su == s->trump;
        lead[i] = (int8_t)(wins ? seat : s->tseat[w]);
        k1[i] = column_h1(s, s->zhand ^ s->zcard[su][r], lead[i]);
        __builtin_prefetch(&s->ctab[(k1[i] & s->cmask) * WAYS]);
        known[i] = -1;
    }
    uint64_t check = column_check(rem);
    int maxing = s->side[seat];
    for (int i = 0; i < n; i++) {
        int nw = won + s->side[lead[i]];
        int v = -1, hit = 0;
        if (nw >= target) v = 1;
        else if (nw + R - 1 < target) v = 0;
        else {
            int su = mv[i].su, r = mv[i].r;
            uint64_t c = su == JOKER ? check : check & ~((uint64_t)1 << (16 * su + r));
            unsigned jk = rem[JOKER] & ~(su == JOKER ? 1u << r : 0u);
            const Slot *x = ctab_find(s, k1[i], c, column_jl(jk, lead[i], R - 1));
            if (x) {
                int lb, ub;
                bounds_for_max(s, x->lb, x->ub, R - 1, &lb, &ub);
                if (nw + lb >= target) v = 1;
                else if (nw + ub < target) v = 0;
                hit = 2;
            }
        }
        if (v >= 0) known[i] = (int8_t)(v + hit);
        if (v == maxing) {
            if (i == 0) return;
            Move t = mv[i];
            int8_t kt = known[i];
            memmove(&mv[1], &mv[0], sizeof(Move) * (size_t)i);
            memmove(&known[1], &known[0], (size_t)i);
            mv[0] = t;
            known[0] = kt;
            return;
        }
    }
}

/* Column mode: the cards hand p may play to a trick led in suit led, its exposed cards of that
 * suit if it has some, else all its exposed cards (what the prefetches ahead enumerate). */
static inline void column_playable(const Solver *s, int p, int led, uint16_t out[NSUITS]) {
    if (s->expo[p][led]) {
        memset(out, 0, sizeof(uint16_t) * NSUITS);
        out[led] = s->expo[p][led];
    } else {
        memcpy(out, s->expo[p], sizeof(uint16_t) * NSUITS);
    }
}

/* Column mode, the last but one card of a trick: the next trick's table sets, fetched at the
 * last card (prefetch_next_probes), are still a wait there, one memory latency a node.  Ask
 * for them one card earlier: for every move here, the sets after each card the last
 * hand may play (its exposed cards of the suit led, or all of them).  A prefetch is only a
 * hint: nothing here changes the search.  (Measured: 6 to 8% less time on the Open Whist par
 * boards; for the first move only, half of that; for the first four, as much as for all.) */
static inline void prefetch_two_ahead(const Solver *s, int seat, const Move *mv, int n) {
    int led = cur_led(s);
    if (led < 0) return;
    int nx = (seat + 1) % s->nseats;
    uint16_t lg[NSUITS];
    column_playable(s, nx, led, lg);
    int w = s->twin[s->tcnt];
    int ws0 = s->tsuit[w], wr0 = s->trank[w], wp0 = s->tseat[w];
    for (int i = 0; i < n; i++) {
        int su = mv[i].su, r = mv[i].r;
        int ws = ws0, wr = wr0, wp = wp0;
        if (su == ws ? r > wr : su == s->trump) ws = su, wr = r, wp = seat;
        uint64_t z = s->zhand ^ s->zcard[su][r];
        for (int su4 = 0; su4 < NSUITS; su4++)
            for (unsigned m = lg[su4]; m; m &= m - 1) {
                int r4 = __builtin_ctz(m);
                int lead = su4 == ws ? (r4 > wr ? nx : wp) : su4 == s->trump ? nx : wp;
                uint64_t h1 = column_h1(s, z ^ s->zcard[su4][r4], lead);
                __builtin_prefetch(&s->ctab[(h1 & s->cmask) * WAYS]);
            }
    }
}

/* Column mode, second hand of four: the next trick's table sets after each of its cards and
 * every pair of cards the third and the last hand may play then (their exposed cards of the
 * suit led, or all of them), in move order while there are at most P3CAP sets in all; returns
 * how many of its cards are covered.  prefetch_two_ahead at the third hand asked for them one
 * card later, too late: reading them at the last card was still a wait, a fifth of the time
 * of search_col by perf (board 9 and 17).  Third hand skips its own prefetch after a covered
 * card (Solver.ahead3).  A prefetch is only a hint: nothing here changes the search.
 * (Measured with the builds interleaved in one process on all 36 Open Whist par boards, CPU
 * 14.33 s -> 13.98 s, -2.4%; on seven boards, three runs, -3 to -5%; with 24 sets at most,
 * -2.2%, 64 or 128 -1.4%, for second hand's first one or two cards only -3.5%, and in place
 * of prefetch_two_ahead wherever it covers, not beside it, -2 to -3%.) */
#define P3CAP 40
static inline int prefetch_three_ahead(const Solver *s, int seat, const Move *mv, int n) {
    int led = cur_led(s);
    if (led < 0) return 0;
    int n3 = (seat + 1) & 3, n4 = (seat + 2) & 3;
    uint16_t l3[NSUITS], l4[NSUITS];
    column_playable(s, n3, led, l3);
    column_playable(s, n4, led, l4);
    int c3 = 0, c4 = 0;
    for (int su = 0; su < NSUITS; su++) c3 += popc(l3[su]), c4 += popc(l4[su]);
    int w = s->twin[s->tcnt];
    int ws0 = s->tsuit[w], wr0 = s->trank[w], wp0 = s->tseat[w];
    int i, budget = P3CAP;
    for (i = 0; i < n && budget >= c3 * c4; i++, budget -= c3 * c4) {
        int su = mv[i].su, r = mv[i].r;
        int ws = ws0, wr = wr0, wp = wp0;
        if (su == ws ? r > wr : su == s->trump) ws = su, wr = r, wp = seat;
        uint64_t z = s->zhand ^ s->zcard[su][r];
        for (int su3 = 0; su3 < NSUITS; su3++)
            for (unsigned m3 = l3[su3]; m3; m3 &= m3 - 1) {
                int r3 = __builtin_ctz(m3);
                int ws3 = ws, wr3 = wr, wp3 = wp;
                if (su3 == ws ? r3 > wr : su3 == s->trump) ws3 = su3, wr3 = r3, wp3 = n3;
                uint64_t z3 = z ^ s->zcard[su3][r3];
                for (int su4 = 0; su4 < NSUITS; su4++)
                    for (unsigned m4 = l4[su4]; m4; m4 &= m4 - 1) {
                        int r4 = __builtin_ctz(m4);
                        int lead = su4 == ws3 ? (r4 > wr3 ? n4 : wp3) : su4 == s->trump ? n4 : wp3;
                        uint64_t h1 = column_h1(s, z3 ^ s->zcard[su4][r4], lead);
                        __builtin_prefetch(&s->ctab[(h1 & s->cmask) * WAYS]);
                    }
            }
    }
    return i;
}

/* Every move failed, some untried because equivalent to a tried one.  The result carries
 * over to positions that share the top cards of each suit down to the lowest rank in W; a
 * pruned card only matters when its run straddles that boundary (the run's top card is above
 * it, the pruned card below): then the run's bottom card joins W so the whole run lies above
 * the boundary. */
static inline void cover_pruned_runs(const Solver *s, int seat, const uint16_t pruned[4],
                                     uint16_t W[4]) {
    for (int su = 0; su < 4; su++) {
        if (!pruned[su]) continue;
        unsigned H = s->hand[seat][su];
        unsigned live = H;
        for (int p = 0; p < s->nseats; p++) live |= s->hand[p][su];
        for (int i = 0; i < s->tcnt; i++)
            if (s->tsuit[i] == su) live |= 1u << s->trank[i];
        unsigned w = W[su] & live;
        if (!w) continue;
        int b = __builtin_ctz(w);
        if (!(H & (1u << b))) continue;
        int low = -1;
        unsigned below = live & ((1u << b) - 1);
        while (below) {
            int c = hibit(below);
            if (!(H & (1u << c))) break;
            low = c;
            below &= ~(1u << c);
        }
        if (low >= 0) W[su] |= (uint16_t)(1u << low);
    }
}

/* The search (see search): COLS is s->columns, a constant in each copy (search_col for column
 * mode, search_cls for the rest), so that each copy drops the tests that cannot hold in it. */
static inline __attribute__((always_inline)) int search_as(Solver *s, int seat, int won,
                                                           int target, int R, uint16_t W[4],
                                                           const int COLS) {
    s->nodes++;
    if (s->nodes >= s->limit) {
        /* unwind without storing anything (see Solver_solve) */
        s->aborted = 1;
        return 0;
    }
    s->curR = R;
    uint64_t h1 = 0, h2 = 0;
    uint32_t own[4];
    uint16_t rem[NSUITS];
    int bsuit = -1, brel = 0;
    wclear(W);
    if (s->tcnt == 0) {
        if (won >= target) return 1;
        if (won + R < target) return 0;
        if (s->spare_dealt) {
            int sp = 0;
            for (int p = 0; p < s->nseats; p++)
                if (hand_len(s, p) > R) sp = 1;
            s->spare = sp;
        }
        if (R == 1 && !s->spare) return play_last_trick(s, seat, won, target, W);
        int v = tt_probe(s, seat, won, target, R, own, rem, &h1, &h2, &bsuit, &brel, W);
        if (v >= 0) return v;
        v = trick_start_cutoffs(s, seat, won, target, R, rem, W);
        if (v >= 0) return v;
    }
    /* tricks the side of the hand to play needs, the current one included */
    int need2 = s->side[seat] ? target - won : won + R - target + 1;
    if (s->tcnt == 1 && s->nseats == 4 && !(s->off & OFF_SECOND_HAND) && !COLS &&
        cur_led(s) >= 0 && (need2 <= 1 || !(s->off & OFF_SECOND_CASH))) {
        int v = second_hand_cutoff(s, seat, need2, W);
        if (v >= 0) return v;
    }
    if (s->tcnt == 2 && s->nseats == 4 && !(s->off & OFF_THIRD_HAND) && !COLS &&
        cur_led(s) >= 0) {
        int v = third_hand_cutoff(s, seat, need2, W);
        if (v >= 0) return v;
    }
    if (COLS && need2 <= 1 && s->nseats == 4 && (s->tcnt == 1 || s->tcnt == 2) &&
        !(s->off & (s->tcnt == 1 ? OFF_SECOND_HAND : OFF_THIRD_HAND)) && cur_led(s) >= 0) {
        int v = column_trick_won(s, seat, 0);
        if (v >= 0) return v;
    }
    if (COLS && need2 >= 2 && s->nseats == 4 && (s->tcnt == 1 || s->tcnt == 2) &&
        s->trump >= 0 && !s->spare && !(s->off & OFF_TRICK_THEN_TRUMPS) && cur_led(s) >= 0) {
        int v = column_trick_then_sure(s, seat, need2);
        if (v >= 0) return v;
    }
    Move mv[MAXHAND * 2];
    uint16_t pruned[4];
    uint16_t dominated[4];
    int n = gen_moves(s, seat, mv, bsuit, brel, pruned, dominated);
    int8_t known[MAXHAND * 2];
    int use_known = 0, covered = 0;
    if (COLS && s->tcnt == s->nseats - 1 && R > 2) {
        prefetch_next_probes(s, seat, mv, n, won, target, R, known);
        use_known = 1;
    } else if (COLS && s->tcnt == s->nseats - 2 && R > 2) {
        if (!(s->nseats == 4 && s->ahead3)) prefetch_two_ahead(s, seat, mv, n);
    } else if (COLS && s->tcnt == 1 && s->nseats == 4 && R > 2) {
        covered = prefetch_three_ahead(s, seat, mv, n);
    }
    int maxing = s->side[seat];
    int res = maxing ? 0 : 1;
    int best = -1;
    int next = (seat + 1) % s->nseats;
    uint16_t CW[4];
    /* Cards below lowrank[su] need no search of their own (see the end of the loop). */
    int lowrank[4] = {-1, -1, -1, -1};
    int dyn = !COLS && !(s->off & OFF_SKIP_LOWER);
    for (int i = 0; i < n; i++) {
        if (mv[i].su != JOKER && mv[i].r < lowrank[mv[i].su]) continue;
        int v;
        if (use_known && known[i] >= 0 && mv[i].drop < 0) {
            /* settled at the last card (prefetch_next_probes): W is not used in column mode */
            v = known[i] & 1;
            wclear(CW);
            if (known[i] & 2) {
                /* the table hit that the next trick's search would have been: a node */
                s->nodes++;
                if (s->nodes >= s->limit) {
                    s->aborted = 1;
                    return 0;
                }
            }
        } else {
        int dsu = mv[i].drop;
        uint16_t dcards = 0;
        uint32_t downers = 0;
        if (dsu >= 0) {
            dcards = s->hand[seat][dsu];
            downers = s->rown[dsu];
            drop_suit(s, seat, dsu);
        }
        if (COLS && s->tcnt == 1) s->ahead3 = i < covered;
        play_as(s, seat, mv[i].su, mv[i].r, COLS);
        if (s->tcnt == s->nseats)
            v = COLS ? column_finish_trick(s, won, target, R, CW)
                           : finish_trick(s, won, target, R, CW);
        else v = COLS ? search_col(s, next, won, target, R, CW)
                         : search_cls(s, next, won, target, R, CW);
        s->curR = R;
        unplay_as(s, seat, mv[i].su, mv[i].r, COLS);
        if (dsu >= 0) undrop_suit(s, seat, dsu, dcards, downers);
        if (s->aborted) return 0;
        }
        if (v == maxing) {
            /* history of cut-offs, capped: it only breaks ties in the move order */
            int *h = &s->hist[seat][mv[i].su][mv[i].r];
            *h = *h + R * R > 4095 ? 4095 : *h + R * R;
            res = v;
            best = i;
            /* (only a card that cut off after another failed, see KILLER_BONUS and
             * FOLLOW_KILLER_BONUS; the killer lead it replaces is kept as the second) */
            if (s->tcnt && i > 0)
                s->fkiller[R][s->tcnt][cur_led(s) + 1] = (uint8_t)(mv[i].su * 16 + mv[i].r + 1);
            if (s->tcnt == 0 && i > 0) {
                uint8_t k = (uint8_t)(mv[i].su * 16 + mv[i].r + 1);
                if (s->killer[R] != k) s->killer2[R] = s->killer[R];
                s->killer[R] = k;
            }
            W[0] = CW[0]; W[1] = CW[1]; W[2] = CW[2]; W[3] = CW[3];
            break;
        }
        W[0] |= CW[0]; W[1] |= CW[1]; W[2] |= CW[2]; W[3] |= CW[3];
        int su = mv[i].su;
        if (dyn && su != JOKER && lowrank[su] < 0) {
            /* The card failed, and the proof needed no rank of its suit at or below it (it
             * lies under every rank in W): any lower card of the suit fails by the same proof,
             * since swapping two cards both below every rank that mattered changes nothing
             * the proof looked at.  (A refutation found this way covers the positions that
             * share the owners of the cards down to the lowest rank in W, as any other.) */
            int low = W[su] ? __builtin_ctz(W[su]) : 16;
            if (mv[i].r < low) lowrank[su] = low;
        }
    }
    if (best < 0) {
        cover_pruned_runs(s, seat, pruned, W);
        for (int su = 0; su < 4; su++) W[su] |= dominated[su];
    }
    if (s->tcnt == 0) {
        int lb = 0, ub = R;
        if (res) lb = target - won;
        else ub = target - won - 1;
        int bs = -1, br = 0;
        if (best >= 0) {
            bs = mv[best].su;
            br = popc(rem[bs] >> (mv[best].r + 1));
        } else {
            bs = bsuit;
            br = brel;
        }
        if (COLS) store_exact(s, h1, h2, column_jl(rem[JOKER], seat, R), R, lb, ub, bs, br);
        else store(s, h1, h2, own, rem, W, R, lb, ub, bs, br);
    }
    return res;
}

static int search_col(Solver *s, int seat, int won, int target, int R, uint16_t W[4]) {
    return search_as(s, seat, won, target, R, W, 1);
}

static int search_cls(Solver *s, int seat, int won, int target, int R, uint16_t W[4]) {
    return search_as(s, seat, won, target, R, W, 0);
}

/* Can the max side take `target` tricks in all (won of them so far), seat to play, R tricks
 * left (the one in progress included)?  W gets the ranks the answer relied on. */
static int search(Solver *s, int seat, int won, int target, int R, uint16_t W[4]) {
    return s->columns ? search_col(s, seat, won, target, R, W)
                      : search_cls(s, seat, won, target, R, W);
}

/* Column mode: the value found from below, one target after another.  A test below the value
 * is cheap (the max side makes its target early) and leaves bounds that help the next one; a
 * test above the value plus one is dear (every defence must be refuted), and a binary search
 * makes one now and then.  Measured on the Open Whist par boards: 6% fewer nodes than the
 * binary search, board 9 (the largest) 41% fewer, boards worth 10 tricks or more somewhat
 * more; starting from 7 and going up from there or from 1 made 3% more than this. */
static int value_from_below(Solver *s, int seat, int R) {
    uint16_t W[4];
    int t = 0;
    while (t < R && search(s, seat, 0, t + 1, R, W) && !s->aborted) t++;
    return t;
}

/* Exact value for the max side from the current state (seat to play, R tricks left). */
static int value(Solver *s, int seat, int R) {
    if (s->columns) return value_from_below(s, seat, R);
    int lo = 0, hi = R;
    uint16_t W[4];
    while (lo < hi && !s->aborted) {
        int t = (lo + hi + 1) / 2;
        if (search(s, seat, 0, t, R, W)) lo = t;
        else hi = t - 1;
    }
    return lo;
}

/* The same from a guess (e.g. the previous leader's result on the same deal): step from it
 * one trick at a time, so a good guess costs two zero-window searches. */
static int value_near(Solver *s, int seat, int R, int guess) {
    uint16_t W[4];
    int t = guess < 1 ? 1 : guess > R ? R : guess;
    if (R == 0) return 0;
    if (search(s, seat, 0, t, R, W)) {
        while (t < R && search(s, seat, 0, t + 1, R, W) && !s->aborted) t++;
        return t;
    }
    t--;
    while (t > 0 && !search(s, seat, 0, t, R, W) && !s->aborted) t--;
    return t;
}

/* A first guess at the tricks of the leader's side on a full bridge deal (four hands of 13
 * cards from a whole 52-card deck, no columns), -1 for any other position.  A guess off by k
 * tricks costs k more zero-window searches than the two that settle the value, and the
 * binary search it replaces takes about four: on 150 random deals (benchmarks.dd_nodes) the
 * binary search made 36.1M nodes, starting from the exact value would make 31.3M, and this
 * guess (about 0.9 trick out on average) makes 33.4M.  Only the speed depends on it.
 *
 * A linear estimate from the leader's side's point of view, fitted by least squares on 250
 * random deals (another 150 deals: 0.8 trick out on average, a third exact): 4-3-2-1 points
 * of the top four cards of each suit, and at no trump the longest combined suit (weights of
 * their own there, and the estimate taken half a trick up: see below); at trumps
 * the combined trump length and each side's doubletons, singletons and voids (2, 1 and 0
 * cards short of three) in a hand holding a trump (ruffing value; the opponents' count
 * against).  Weights in thousandths of a trick. */
static int bridge_guess(const Solver *s, int leader) {
    if (s->nseats != 4 || s->columns || s->hsize != 13) return -1;
    for (int su = 0; su < 4; su++)
        if (s->deck[su] != 0x1fff) return -1;
    if (s->deck[JOKER]) return -1;
    int len[4][4];
    for (int p = 0; p < 4; p++) {
        int n = 0;
        for (int su = 0; su < 4; su++) n += len[p][su] = popc(s->init[p][su]);
        if (n != 13) return -1; /* spare cards */
    }
    int pa = (leader + 2) & 3, hcp = 0;
    for (int su = 0; su < 4; su++) {
        unsigned h = s->init[leader][su] | s->init[pa][su];
        hcp += 4 * !!(h & 0x1000) + 3 * !!(h & 0x800) + 2 * !!(h & 0x400) + !!(h & 0x200);
    }
    long e = 6350 + 405L * (hcp - 20);
    int t = s->trump;
    if (t < 0) {
        int best = 0;
        for (int su = 0; su < 4; su++)
            if (len[leader][su] + len[pa][su] > best) best = len[leader][su] + len[pa][su];
        /* At no trump a guess of g costs about as much when the value is g - 1 as when it is g
         * (the same two searches, in the other order), and more otherwise: on the 300 no-trump
         * deals of two sets of 150 (seeds 2026, 7, 11 and 101, 202, 303), guessing one trick
         * high made 1.5% and 0.5% more nodes than guessing the value, one trick low 17% and
         * 14% more.  So the estimate is taken half a trick up (rounded up, not to the
         * nearest), which puts the value at g or g - 1 on 60% of 8,000 other no-trump results
         * (2,000 random deals, each hand leading, valued by DDS), against 51% for the weights
         * fitted on all strains rounded to the nearest; its weights were fitted on those
         * results by least squares (1.0 trick out on average there, the others 1.1).  Measured
         * against the guess those gave: 2.2% fewer nodes on the first 150 deals, 2.6% on the
         * other 150, but 1.0% more on a third (seeds 404, 505, 606: a few large deals decide
         * such totals; the value fell at g or g - 1 on 93 of its deals instead of 73). */
        e = -6071 + 513L * hcp + 336L * best + 500;
    } else {
        int tl = len[leader][t] + len[pa][t], ours = 0, theirs = 0;
        for (int p = 0; p < 4; p++) {
            if (!len[p][t]) continue;
            int sh = 0;
            for (int su = 0; su < 4; su++)
                if (su != t && len[p][su] < 2) sh += 2 - len[p][su];
            if ((p & 1) == (leader & 1)) ours += sh;
            else theirs += sh;
        }
        e += 269 + 957L * (2 * tl - 13) / 2 + 499L * ours - 327L * theirs;
    }
    int g = (int)((e + 500) / 1000);
    if (e < 0) g = 0;
    return g < 0 ? 0 : g > 13 ? 13 : g;
}

static void set_side(Solver *s, int for_seat) {
    int mask = 0;
    for (int p = 0; p < s->nseats; p++) {
        int same = s->nseats == 4 ? ((p & 1) == (for_seat & 1)) : p == for_seat;
        s->side[p] = same;
        if (same) mask |= 1 << p;
    }
    int all = (1 << s->nseats) - 1;
    if (s->refmask == 0) s->refmask = mask;
    if (mask != s->refmask && !(s->nseats == 4 && mask == (all & ~s->refmask))) {
        tt_clear(s);
        s->refmask = mask;
    }
    s->curmask = mask;
}

static void reset_state(Solver *s) {
    memcpy(s->hand, s->init, sizeof(s->hand));
    memset(s->expo, 0, sizeof(s->expo));
    s->zhand = 0;
    memset(s->cbottom, 0, sizeof(s->cbottom));
    memset(s->inhand, 0, sizeof(s->inhand));
    for (int p = 0; s->columns && p < s->nseats; p++)
        for (int k = 0; k < s->nstacks[p]; k++) {
            int t = s->stlen[p][k] - 1;
            s->sttop[p][k] = (int8_t)t;
            for (int j = 0; j <= t; j++) {
                int c = s->stack[p][k][j];
                s->where[c >> 4][c & 15] = (uint8_t)k;
                s->zhand ^= s->zcard[c >> 4][c & 15];
                s->inhand[c >> 4] |= (uint16_t)(1u << (c & 15));
                if (j == 0) s->cbottom[c >> 4] |= (uint16_t)(1u << (c & 15));
            }
            if (t >= 0) {
                int c = s->stack[p][k][t];
                s->expo[p][c >> 4] |= (uint16_t)(1u << (c & 15));
            }
        }
    memset(s->gone, 0, sizeof(s->gone));
    s->spare = s->spare_dealt;
    s->twin[0] = 0;
    s->tled[0] = -1;
    s->lens[0] = s->lens[1] = 0;
    memset(s->deck, 0, sizeof(s->deck));
    for (int p = 0; p < s->nseats; p++)
        for (int su = 0; su < NSUITS; su++) {
            s->lens[p >> 1] += (uint64_t)popc(s->hand[p][su]) << len_shift(p, su);
            s->deck[su] |= s->hand[p][su];
            for (int r = 0; r < 16; r++)
                if (s->hand[p][su] & (1u << r)) s->owner[su][r] = (uint8_t)p;
        }
    uint16_t rem[NSUITS];
    owners(s, s->rown, rem);
    s->tcnt = 0;
}

/* ---- Python type --------------------------------------------------------------------- */

static void Solver_dealloc(Solver *self) {
    ctab_free(self);
    free(self->tt);
    free(self->pool);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int parse_card(PyObject *o, int *su, int *r) {
    long c = PyLong_AsLong(o);
    if (c == -1 && PyErr_Occurred()) return -1;
    if (c < 0 || c >= NSUITS * 16) {
        PyErr_Format(PyExc_ValueError, "card code %ld out of range", c);
        return -1;
    }
    *su = (int)(c >> 4);
    *r = (int)(c & 15);
    return 0;
}

/* Read the hands (sequences of card codes) into out; tricks as for the constructor.  Sets
 * *nseats, *size (the common size, or -1 with tricks) and *spare (some hand holds more cards
 * than the tricks).  On error out may be half written: callers parse into a scratch copy
 * when a refusal must leave the solver as it was. */
static int parse_hands(PyObject *hands, int tricks, uint16_t out[MAXSEATS][NSUITS], int *nseats,
                       int *size_out, int *spare_out) {
    PyObject *hs = PySequence_Fast(hands, "hands must be a sequence of hands");
    if (!hs) return -1;
    Py_ssize_t ns = PySequence_Fast_GET_SIZE(hs);
    if (ns != 3 && ns != 4) {
        Py_DECREF(hs);
        PyErr_SetString(PyExc_ValueError, "there must be 3 or 4 hands");
        return -1;
    }
    memset(out, 0, sizeof(uint16_t) * MAXSEATS * NSUITS);
    uint16_t seen[NSUITS] = {0};
    int size = -1, spare = 0;
    for (Py_ssize_t p = 0; p < ns; p++) {
        PyObject *h = PySequence_Fast(PySequence_Fast_GET_ITEM(hs, p),
                                      "each hand must be a sequence of card codes");
        if (!h) { Py_DECREF(hs); return -1; }
        Py_ssize_t nc = PySequence_Fast_GET_SIZE(h);
        if (tricks == 0 && (nc < 1 || nc > MAXHAND - 1 || (size >= 0 && nc != size))) {
            Py_DECREF(h);
            Py_DECREF(hs);
            PyErr_SetString(PyExc_ValueError, "hands must hold 1..17 cards, all the same number");
            return -1;
        }
        if (tricks > 0 && (nc < tricks || nc > MAXHAND)) {
            Py_DECREF(h);
            Py_DECREF(hs);
            PyErr_SetString(PyExc_ValueError,
                            "with tricks=N every hand must hold N to 18 cards");
            return -1;
        }
        if (tricks == 0) size = (int)nc;
        else if (nc > tricks) spare = 1;
        for (Py_ssize_t i = 0; i < nc; i++) {
            int su, r;
            if (parse_card(PySequence_Fast_GET_ITEM(h, i), &su, &r) < 0) {
                Py_DECREF(h);
                Py_DECREF(hs);
                return -1;
            }
            if (seen[su] & (1u << r)) {
                Py_DECREF(h);
                Py_DECREF(hs);
                PyErr_SetString(PyExc_ValueError, "a card is held twice");
                return -1;
            }
            seen[su] |= (uint16_t)(1u << r);
            out[p][su] |= (uint16_t)(1u << r);
        }
        Py_DECREF(h);
    }
    Py_DECREF(hs);
    *nseats = (int)ns;
    *size_out = size;
    *spare_out = spare;
    return 0;
}

static int Solver_init(Solver *self, PyObject *args, PyObject *kwds) {
    /* off: the OFF_* bits of search shortcuts to switch off (tests only) */
    /* tricks: how many tricks to play (0: the hands' common size).  With a number, hands may
     * hold more cards than that (spare cards, never played): the Bid Whist discard search
     * gives the declarer all 18 cards to bound every choice of 6 discards from above. */
    static char *kwlist[] = {"hands", "trump", "jokers_follow", "columns", "table_bits", "off",
                             "tricks", NULL};
    PyObject *hands, *columns = Py_None;
    int trump = -1, jfollow = 0, bits = 20, off = 0, tricks = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|ipOiii", kwlist, &hands, &trump, &jfollow,
                                     &columns, &bits, &off, &tricks))
        return -1;
    if (tricks < 0 || tricks > MAXHAND - 1) {
        PyErr_SetString(PyExc_ValueError, "tricks must be 0 (the hand size) or 1..17");
        return -1;
    }
    if (bits < 10 || bits > 22) {
        PyErr_SetString(PyExc_ValueError, "table_bits must be between 10 and 22");
        return -1;
    }
    if (trump < -1 || trump > 3) {
        PyErr_SetString(PyExc_ValueError, "trump must be -1 (none) or a suit index 0..3");
        return -1;
    }
    int ns, size, spare;
    if (parse_hands(hands, tricks, self->init, &ns, &size, &spare) < 0) return -1;
    self->nseats = ns;
    self->tricks = tricks;
    self->hsize = tricks ? tricks : size;
    self->spare_dealt = spare;
    self->trump = trump;
    self->jfollow = jfollow;
    self->columns = 0;
    memset(self->nstacks, 0, sizeof(self->nstacks));
    if (columns != Py_None && spare) {
        PyErr_SetString(PyExc_ValueError, "spare cards and columns do not go together");
        return -1;
    }
    if (columns != Py_None) {
        PyObject *cs = PySequence_Fast(columns, "columns must be a sequence per seat");
        if (!cs) return -1;
        if (PySequence_Fast_GET_SIZE(cs) != ns) {
            Py_DECREF(cs);
            PyErr_SetString(PyExc_ValueError, "columns must give one layout per seat");
            return -1;
        }
        for (Py_ssize_t p = 0; p < ns; p++) {
            PyObject *st = PySequence_Fast(PySequence_Fast_GET_ITEM(cs, p),
                                           "a seat's layout must be a sequence of stacks");
            if (!st) { Py_DECREF(cs); return -1; }
            Py_ssize_t nst = PySequence_Fast_GET_SIZE(st);
            if (nst > MAXSTACKS) {
                Py_DECREF(st);
                Py_DECREF(cs);
                PyErr_SetString(PyExc_ValueError, "too many stacks");
                return -1;
            }
            uint16_t got[NSUITS] = {0};
            for (Py_ssize_t k = 0; k < nst; k++) {
                PyObject *one = PySequence_Fast(PySequence_Fast_GET_ITEM(st, k),
                                                "a stack must be a sequence of card codes");
                if (!one) { Py_DECREF(st); Py_DECREF(cs); return -1; }
                Py_ssize_t len = PySequence_Fast_GET_SIZE(one);
                if (len > MAXHAND) {
                    Py_DECREF(one); Py_DECREF(st); Py_DECREF(cs);
                    PyErr_SetString(PyExc_ValueError, "stack too long");
                    return -1;
                }
                for (Py_ssize_t j = 0; j < len; j++) {
                    int su, r;
                    if (parse_card(PySequence_Fast_GET_ITEM(one, j), &su, &r) < 0) {
                        Py_DECREF(one); Py_DECREF(st); Py_DECREF(cs);
                        return -1;
                    }
                    if (got[su] & (1u << r)) {
                        Py_DECREF(one); Py_DECREF(st); Py_DECREF(cs);
                        PyErr_SetString(PyExc_ValueError, "a card appears twice in the columns");
                        return -1;
                    }
                    got[su] |= (uint16_t)(1u << r);
                    self->stack[p][k][j] = (uint8_t)(su * 16 + r);
                }
                self->stlen[p][k] = (int)len;
                Py_DECREF(one);
            }
            self->nstacks[p] = (int)nst;
            Py_DECREF(st);
            if (memcmp(got, self->init[p], sizeof(got)) != 0) {
                Py_DECREF(cs);
                PyErr_SetString(PyExc_ValueError, "a seat's columns do not hold exactly its hand");
                return -1;
            }
        }
        Py_DECREF(cs);
        self->columns = 1;
    }
    free(self->tt);
    free(self->pool);
    ctab_free(self);
    self->tt = NULL;
    self->pool = NULL;
    self->cmask = 0;
    if (self->columns) {
        /* 2**bits sets of 64 bytes: 64 MB at the default 20 (measured on the Open Whist par
         * boards: 6% fewer nodes than 32 MB, 128 MB saved 2% more), a smaller table for
         * short hands, whose searches are small (16 MB for 7 tricks, 1 MB for 5) */
        int cbits = 4 + 2 * self->hsize < bits ? 4 + 2 * self->hsize : bits;
        self->cmask = ((uint64_t)1 << cbits) - 1;
        if (ctab_alloc(self) < 0) {
            PyErr_NoMemory();
            return -1;
        }
    }
    int start = bits < 14 ? bits : 14;
    self->maxbits = bits;
    self->maxpool = 1 << (bits - 2);
    self->tt = calloc((size_t)1 << start, sizeof(Bucket));
    self->npool = 1 << (start - 4);
    self->pool = malloc(sizeof(Chunk) * (size_t)self->npool);
    if (!self->tt || !self->pool) {
        PyErr_NoMemory();
        return -1;
    }
    self->ttmask = ((uint64_t)1 << start) - 1;
    self->tused = 0;
    self->pused = 0;
    self->refmask = 0;
    self->nodes = 0;
    self->trick_nodes = 0;
    self->limit = LLONG_MAX;
    self->off = off;
    self->last_value = 0;
    self->last_mask = 0;
    memset(self->hist, 0, sizeof(self->hist));
    reset_state(self);
    return 0;
}

static int check_ready(Solver *self) {
    if (!self->tt) {
        PyErr_SetString(PyExc_RuntimeError, "Solver not initialised");
        return -1;
    }
    return 0;
}

static int check_seat(Solver *self, int seat, const char *what) {
    if (seat < 0 || seat >= self->nseats) {
        PyErr_Format(PyExc_ValueError, "%s must be a seat index 0..%d", what, self->nseats - 1);
        return -1;
    }
    return 0;
}

static PyObject *NodeLimitError;

/* max_nodes > 0: give up (NodeLimitError) after that many more search nodes.  Bounds stored
 * before the limit are sound and stay; nothing is stored while unwinding. */
static int start_limit(Solver *self, long long max_nodes) {
    if (max_nodes < 0) {
        PyErr_SetString(PyExc_ValueError, "max_nodes must be 0 (no limit) or positive");
        return -1;
    }
    self->aborted = 0;
    self->limit = max_nodes ? self->nodes + max_nodes : LLONG_MAX;
    return 0;
}

static int end_limit(Solver *self) {
    self->limit = LLONG_MAX;
    if (!self->aborted) return 0;
    self->aborted = 0;
    reset_state(self);
    PyErr_SetString(NodeLimitError, "the search reached its node limit");
    return -1;
}

static PyObject *Solver_solve(Solver *self, PyObject *args) {
    int leader, for_seat = -1;
    long long max_nodes = 0;
    if (!PyArg_ParseTuple(args, "i|iL", &leader, &for_seat, &max_nodes)) return NULL;
    if (start_limit(self, max_nodes) < 0) return NULL;
    if (check_ready(self) < 0 || check_seat(self, leader, "leader") < 0) return NULL;
    if (for_seat == -1) for_seat = leader;
    if (check_seat(self, for_seat, "for_seat") < 0) return NULL;
    reset_state(self);
    set_side(self, for_seat);
    int v;
    int guess = -1;
    if (self->last_mask == self->curmask) guess = self->last_value;
    else if (self->last_mask && self->nseats == 4) guess = self->hsize - self->last_value;
    else {
        guess = bridge_guess(self, leader);
        if (guess >= 0 && !self->side[leader]) guess = self->hsize - guess;
    }
    Py_BEGIN_ALLOW_THREADS
    v = guess < 0 ? value(self, leader, self->hsize) : value_near(self, leader, self->hsize, guess);
    Py_END_ALLOW_THREADS
    if (end_limit(self) < 0) return NULL;
    self->last_value = v;
    self->last_mask = self->curmask;
    return PyLong_FromLong(v);
}

static PyObject *Solver_at_least(Solver *self, PyObject *args) {
    int leader, for_seat, target;
    long long max_nodes = 0;
    if (!PyArg_ParseTuple(args, "iii|L", &leader, &for_seat, &target, &max_nodes)) return NULL;
    if (check_ready(self) < 0 || check_seat(self, leader, "leader") < 0 ||
        check_seat(self, for_seat, "for_seat") < 0 || start_limit(self, max_nodes) < 0)
        return NULL;
    reset_state(self);
    set_side(self, for_seat);
    int v;
    uint16_t W[4];
    Py_BEGIN_ALLOW_THREADS
    v = search(self, leader, 0, target, self->hsize, W);
    Py_END_ALLOW_THREADS
    if (end_limit(self) < 0) return NULL;
    return PyBool_FromLong(v);
}

/* New hands for the same game (seats, trump, rules, tricks), keeping the table: its bounds
 * hold for a position whatever deal it came from (the key is the suit lengths, the leader,
 * the tricks left and the owners of the top remaining cards, all read from the position
 * itself), so the discard search's nearly identical positions share their work. */
static PyObject *Solver_deal(Solver *self, PyObject *args) {
    PyObject *hands;
    if (!PyArg_ParseTuple(args, "O", &hands)) return NULL;
    if (check_ready(self) < 0) return NULL;
    if (self->columns) {
        PyErr_SetString(PyExc_ValueError, "deal() does not take column positions");
        return NULL;
    }
    uint16_t fresh[MAXSEATS][NSUITS];
    int ns, size, spare;
    if (parse_hands(hands, self->tricks, fresh, &ns, &size, &spare) < 0) return NULL;
    if (ns != self->nseats) {
        PyErr_Format(PyExc_ValueError, "deal() needs %d hands, as the solver was made with",
                     self->nseats);
        return NULL;
    }
    memcpy(self->init, fresh, sizeof(fresh));
    self->hsize = self->tricks ? self->tricks : size;
    self->spare_dealt = spare;
    reset_state(self);
    Py_RETURN_NONE;
}

/* The principal line: every card in order, each chosen to keep the value. */
static PyObject *Solver_line(Solver *self, PyObject *args) {
    int leader, for_seat = -1;
    if (!PyArg_ParseTuple(args, "i|i", &leader, &for_seat)) return NULL;
    if (check_ready(self) < 0 || check_seat(self, leader, "leader") < 0) return NULL;
    if (for_seat == -1) for_seat = leader;
    if (check_seat(self, for_seat, "for_seat") < 0) return NULL;
    if (self->spare_dealt) {
        PyErr_SetString(PyExc_ValueError, "no line of play with spare cards");
        return NULL;
    }
    reset_state(self);
    set_side(self, for_seat);
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    int seat = leader, won = 0;
    uint16_t W[4];
    int total = value(self, leader, self->hsize);
    for (int k = 0; k < self->hsize * self->nseats; k++) {
        Move mv[MAXHAND * 2];
        uint16_t pruned[4], dominated[4];
        int n = gen_moves(self, seat, mv, -1, 0, pruned, dominated);
        int chosen = -1;
        int left = self->hsize - k / self->nseats; /* tricks left including this one */
        for (int i = 0; i < n && chosen < 0; i++) {
            play(self, seat, mv[i].su, mv[i].r);
            int ok;
            if (self->tcnt == self->nseats) {
                /* value with this trick settled */
                ok = finish_trick(self, won, total, left, W);
            } else {
                ok = search(self, (seat + 1) % self->nseats, won, total, left, W);
            }
            /* the card keeps the value if the max side still reaches total and
               cannot reach total + 1 */
            if (ok) {
                int more;
                if (self->tcnt == self->nseats) more = finish_trick(self, won, total + 1, left, W);
                else more = search(self, (seat + 1) % self->nseats, won, total + 1, left, W);
                if (!more) chosen = i;
            }
            if (chosen < 0) unplay(self, seat, mv[i].su, mv[i].r);
        }
        if (chosen < 0) {
            Py_DECREF(out);
            PyErr_SetString(PyExc_RuntimeError, "internal error: no card keeps the value");
            return NULL;
        }
        PyObject *c = PyLong_FromLong(mv[chosen].su * 16 + mv[chosen].r);
        if (!c || PyList_Append(out, c) < 0) {
            Py_XDECREF(c);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(c);
        if (self->tcnt == self->nseats) {
            int w = self->tseat[trick_winner_index(self)];
            for (int i = 0; i < self->tcnt; i++)
                self->gone[self->tsuit[i]] |= (uint16_t)(1u << self->trank[i]);
            uint16_t rem[NSUITS];
            owners(self, self->rown, rem);
            self->tcnt = 0;
            won += self->side[w];
            seat = w;
        } else {
            seat = (seat + 1) % self->nseats;
        }
    }
    reset_state(self);
    return out;
}

static PyObject *Solver_get_nodes(Solver *self, void *closure) {
    (void)closure;
    return PyLong_FromLongLong(self->nodes);
}

static PyObject *Solver_get_trick_nodes(Solver *self, void *closure) {
    (void)closure;
    return PyLong_FromLongLong(self->trick_nodes);
}

static PyMethodDef Solver_methods[] = {
    {"solve", (PyCFunction)Solver_solve, METH_VARARGS,
     "solve(leader, for_seat=leader, max_nodes=0) -> tricks won by for_seat's side with leader on "
     "lead; NodeLimitError after max_nodes search nodes (0: no limit)"},
    {"at_least", (PyCFunction)Solver_at_least, METH_VARARGS,
     "at_least(leader, for_seat, target, max_nodes=0) -> can for_seat's side take target "
     "tricks? NodeLimitError after max_nodes search nodes (0: no limit)"},
    {"deal", (PyCFunction)Solver_deal, METH_VARARGS,
     "deal(hands) -> None: new hands (card codes per seat, as for the constructor) for the same "
     "seats, trump, rules and tricks; the table is kept"},
    {"line", (PyCFunction)Solver_line, METH_VARARGS,
     "line(leader, for_seat=leader) -> card codes of one principal line of play"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Solver_getset[] = {
    {"nodes", (getter)Solver_get_nodes, NULL, "search nodes visited so far", NULL},
    {"trick_nodes", (getter)Solver_get_trick_nodes, NULL,
     "tricks completed in the search so far (the count DDS reports as its nodes)", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject SolverType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "engine.dd._core.Solver",
    .tp_doc = "Double-dummy solver for one deal (hands, trump, rules); reuse it across leaders.",
    .tp_basicsize = sizeof(Solver),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Solver_init,
    .tp_dealloc = (destructor)Solver_dealloc,
    .tp_methods = Solver_methods,
    .tp_getset = Solver_getset,
};

static struct PyModuleDef coremodule = {
    PyModuleDef_HEAD_INIT, "engine.dd._core",
    "Compiled double-dummy search core for clubwhist (see engine/dd/__init__.py).", -1, NULL,
    NULL, NULL, NULL, NULL};

#ifdef DD_POPCNT
#pragma GCC pop_options
#endif

PyMODINIT_FUNC PyInit__core(void) {
#ifdef DD_POPCNT
    if (!__builtin_cpu_supports("popcnt")) {
        PyErr_SetString(PyExc_ImportError,
                        "engine.dd._core needs the popcnt instruction, which this processor lacks");
        return NULL;
    }
#endif
    if (PyType_Ready(&SolverType) < 0) return NULL;
    PyObject *m = PyModule_Create(&coremodule);
    if (!m) return NULL;
    NodeLimitError = PyErr_NewExceptionWithDoc(
        "engine.dd._core.NodeLimitError",
        "A search stopped at the node limit it was given (no answer).", PyExc_RuntimeError,
        NULL);
    if (!NodeLimitError || PyModule_AddObject(m, "NodeLimitError", NodeLimitError) < 0) {
        Py_XDECREF(NodeLimitError);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(NodeLimitError);
    Py_INCREF(&SolverType);
    if (PyModule_AddObject(m, "Solver", (PyObject *)&SolverType) < 0) {
        Py_DECREF(&SolverType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
