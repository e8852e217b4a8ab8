//! Maximum matching in a general graph (Edmonds' blossom algorithm), used by
//! the Swiss pairing as an oracle: it keeps a perfect matching of the players
//! not yet paired, so it can tell at once which partners of a player still
//! leave the rest of the field pairable.
//!
//! Each search grows an alternating tree from one unmatched vertex, shrinking
//! odd cycles (blossoms) into their base as it meets them; one search costs
//! O(V^2 + E), and nothing here ever backtracks.

const NONE: usize = usize::MAX;

/// A graph on vertices `0..n`, some of them removed ("dead"), with a
/// matching of the live ones.
#[derive(Debug, Clone)]
pub(super) struct Matcher {
    adjacency: Vec<Vec<usize>>,
    alive: Vec<bool>,
    mate: Vec<usize>,
    // Scratch space of one search.
    parent: Vec<usize>,
    base: Vec<usize>,
    outer: Vec<bool>,
    in_blossom: Vec<bool>,
    on_path: Vec<bool>,
    queue: Vec<usize>,
}

impl Matcher {
    /// A graph on `0..n`, all alive, with the edges for which `edge(a, b)`
    /// holds (asked once for each `a < b`), and an empty matching.
    pub(super) fn new(n: usize, mut edge: impl FnMut(usize, usize) -> bool) -> Matcher {
        let mut adjacency = vec![Vec::new(); n];
        for a in 0..n {
            for b in a + 1..n {
                if edge(a, b) {
                    adjacency[a].push(b);
                    adjacency[b].push(a);
                }
            }
        }
        Matcher {
            adjacency,
            alive: vec![true; n],
            mate: vec![NONE; n],
            parent: vec![NONE; n],
            base: (0..n).collect(),
            outer: vec![false; n],
            in_blossom: vec![false; n],
            on_path: vec![false; n],
            queue: Vec::with_capacity(n),
        }
    }

    fn len(&self) -> usize {
        self.alive.len()
    }

    /// Takes `v` out of the graph (its partner, if any, becomes unmatched).
    pub(super) fn remove(&mut self, v: usize) {
        self.alive[v] = false;
        let m = self.mate[v];
        if m != NONE {
            self.mate[m] = NONE;
            self.mate[v] = NONE;
        }
    }

    /// Grows the matching of the live vertices to a maximum one; returns
    /// how many live vertices are left unmatched.
    pub(super) fn maximize(&mut self) -> usize {
        // A quick greedy start spares most of the searches.
        for v in 0..self.len() {
            if !self.alive[v] || self.mate[v] != NONE {
                continue;
            }
            let free = self.adjacency[v]
                .iter()
                .copied()
                .find(|&w| self.alive[w] && self.mate[w] == NONE);
            if let Some(w) = free {
                self.mate[v] = w;
                self.mate[w] = v;
            }
        }
        let mut unmatched = 0;
        for v in 0..self.len() {
            if self.alive[v] && self.mate[v] == NONE {
                match self.search(v) {
                    Some(end) => self.augment(end),
                    None => unmatched += 1,
                }
            }
        }
        unmatched
    }

    /// The live vertices that some maximum matching leaves unmatched, when
    /// exactly one live vertex is unmatched now (otherwise all false): the
    /// vertices whose removal leaves a perfect matching of the rest.
    pub(super) fn spare_vertices(&mut self) -> Vec<bool> {
        let mut free = (0..self.len()).filter(|&v| self.alive[v] && self.mate[v] == NONE);
        match (free.next(), free.next()) {
            (Some(root), None) => {
                if self.search(root).is_some() {
                    // Not a maximum matching: the caller did not maximize.
                    return vec![false; self.len()];
                }
                self.outer.clone()
            }
            _ => vec![false; self.len()],
        }
    }

    /// With a perfect matching of the live vertices: the neighbours `q` of
    /// `p` such that pairing `p` with `q` leaves a perfect matching of the
    /// rest.
    pub(super) fn partners(&mut self, p: usize) -> Vec<bool> {
        let mut result = vec![false; self.len()];
        let m = self.mate[p];
        if m == NONE {
            return result;
        }
        self.alive[p] = false;
        self.mate[p] = NONE;
        self.mate[m] = NONE;
        let augmenting = self.search(m);
        self.alive[p] = true;
        self.mate[p] = m;
        self.mate[m] = p;
        if augmenting.is_some() {
            // The matching was not perfect; only the current partner is sure.
            result[m] = true;
            return result;
        }
        for &q in &self.adjacency[p] {
            result[q] = self.alive[q] && self.outer[q];
        }
        result
    }

    /// Takes `p` and `q` out of the graph as a pair and repairs the matching
    /// of the rest; false if the rest is then not perfectly matched.
    pub(super) fn pair_off(&mut self, p: usize, q: usize) -> bool {
        self.remove(p);
        self.remove(q);
        self.maximize() == 0
    }

    /// Follows the tree paths from `a` and `b` up to the base of the blossom
    /// their edge closes.
    fn common_base(&mut self, a: usize, b: usize) -> usize {
        self.on_path.fill(false);
        let mut a = a;
        loop {
            a = self.base[a];
            self.on_path[a] = true;
            if self.mate[a] == NONE {
                break;
            }
            a = self.parent[self.mate[a]];
        }
        let mut b = b;
        loop {
            b = self.base[b];
            if self.on_path[b] {
                return b;
            }
            b = self.parent[self.mate[b]];
        }
    }

    /// Marks the blossom's vertices on the path from `v` down to `base`, and
    /// points their parents across the closing edge (from `child`).
    fn mark_blossom(&mut self, v: usize, base: usize, child: usize) {
        let mut v = v;
        let mut child = child;
        while self.base[v] != base {
            self.in_blossom[self.base[v]] = true;
            self.in_blossom[self.base[self.mate[v]]] = true;
            self.parent[v] = child;
            child = self.mate[v];
            v = self.parent[self.mate[v]];
        }
    }

    /// Grows an alternating tree from the unmatched vertex `root`. Returns
    /// the unmatched vertex an augmenting path reaches, if any; otherwise
    /// `outer` holds every vertex at even distance from the root (blossoms
    /// counted whole).
    fn search(&mut self, root: usize) -> Option<usize> {
        let n = self.len();
        self.outer.fill(false);
        self.parent.fill(NONE);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.queue.clear();
        self.outer[root] = true;
        self.queue.push(root);
        let mut head = 0;
        while head < self.queue.len() {
            let v = self.queue[head];
            head += 1;
            for i in 0..self.adjacency[v].len() {
                let to = self.adjacency[v][i];
                if !self.alive[to] || self.base[v] == self.base[to] || self.mate[v] == to {
                    continue;
                }
                if to == root || (self.mate[to] != NONE && self.parent[self.mate[to]] != NONE) {
                    let base = self.common_base(v, to);
                    self.in_blossom.fill(false);
                    self.mark_blossom(v, base, to);
                    self.mark_blossom(to, base, v);
                    for u in 0..n {
                        if self.in_blossom[self.base[u]] {
                            self.base[u] = base;
                            if !self.outer[u] {
                                self.outer[u] = true;
                                self.queue.push(u);
                            }
                        }
                    }
                } else if self.parent[to] == NONE {
                    self.parent[to] = v;
                    if self.mate[to] == NONE {
                        return Some(to);
                    }
                    let next = self.mate[to];
                    self.outer[next] = true;
                    self.queue.push(next);
                }
            }
        }
        None
    }

    /// Flips the augmenting path that ends at `end` (found by `search`).
    fn augment(&mut self, end: usize) {
        let mut v = end;
        while v != NONE {
            let pv = self.parent[v];
            let next = self.mate[pv];
            self.mate[v] = pv;
            self.mate[pv] = v;
            v = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cycle(n: usize) -> Matcher {
        Matcher::new(n, |a, b| b == a + 1 || (a == 0 && b == n - 1))
    }

    #[test]
    fn even_cycle_is_perfect() {
        let mut m = cycle(6);
        assert_eq!(m.maximize(), 0);
    }

    #[test]
    fn odd_cycle_spares_anyone() {
        let mut m = cycle(7);
        assert_eq!(m.maximize(), 1);
        assert!(m.spare_vertices().iter().all(|&s| s));
    }

    #[test]
    fn blossom_is_found() {
        // A triangle 0-1-2 with a pendant on each corner: the one perfect
        // matching takes the three pendant edges.
        let edges = [(0, 1), (1, 2), (0, 2), (2, 3), (0, 4), (1, 5)];
        let mut m = Matcher::new(6, |a, b| edges.contains(&(a, b)));
        assert_eq!(m.maximize(), 0);
        assert_eq!(m.mate, [4, 5, 3, 2, 0, 1]);
    }

    #[test]
    fn partners_keep_the_rest_pairable() {
        // A path 0-1-2-3 plus the chord 0-2: 1 may only go with 0 or 2, but
        // 1-2 strands 0 and 3; so 1's only partner is 0.
        let edges = [(0, 1), (1, 2), (2, 3), (0, 2)];
        let mut m = Matcher::new(4, |a, b| edges.contains(&(a, b)));
        assert_eq!(m.maximize(), 0);
        assert_eq!(m.partners(1), [true, false, false, false]);
        assert!(m.pair_off(1, 0));
        assert_eq!(m.mate[2], 3);
    }

    #[test]
    fn spare_vertices_of_a_path() {
        // 0-1-2-3-4: only the even places may sit out.
        let mut m = Matcher::new(5, |a, b| b == a + 1);
        assert_eq!(m.maximize(), 1);
        assert_eq!(m.spare_vertices(), [true, false, true, false, true]);
    }

    /// Whether the vertices of `set` (a bit mask) can all be paired.
    fn perfect(edges: &[Vec<bool>], set: u32) -> bool {
        if set == 0 {
            return true;
        }
        let a = set.trailing_zeros() as usize;
        let rest = set & !(1 << a);
        (0..edges.len())
            .filter(|&b| rest & (1 << b) != 0 && edges[a][b])
            .any(|b| perfect(edges, rest & !(1 << b)))
    }

    #[test]
    fn agrees_with_brute_force_on_random_graphs() {
        let mut rng = crate::rng::SplitMix64::new(11);
        for _ in 0..3000 {
            let n = 2 + rng.below(9);
            let density = 1 + rng.below(9);
            let mut edges = vec![vec![false; n]; n];
            for (a, b) in (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))) {
                let e = rng.below(10) < density;
                edges[a][b] = e;
                edges[b][a] = e;
            }
            let all = (1u32 << n) - 1;
            let mut m = Matcher::new(n, |a, b| edges[a][b]);
            let unmatched = m.maximize();
            if n.is_multiple_of(2) {
                assert_eq!(unmatched == 0, perfect(&edges, all));
                if unmatched == 0 {
                    for p in 0..n {
                        let partners = m.clone().partners(p);
                        for q in 0..n {
                            let expected = q != p
                                && edges[p][q]
                                && perfect(&edges, all & !(1 << p) & !(1 << q));
                            assert_eq!(partners[q], expected, "{edges:?} {p} {q}");
                        }
                    }
                    let (p, q) = (0, m.mate[0]);
                    assert!(m.pair_off(p, q));
                }
            } else {
                let spare = m.spare_vertices();
                for (v, &s) in spare.iter().enumerate() {
                    assert_eq!(s, perfect(&edges, all & !(1 << v)), "{edges:?} {v}");
                }
            }
        }
    }
}
