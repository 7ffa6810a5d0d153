//! The seed's experiment as a workload: a bellman-style `LinearCombination`
//! whose terms live in a `Vec<(usize, u64)>` (build A) or in a
//! `SmallVec<[(usize, u64); 2]>` (build B, `--features small`), built as
//! temporaries inside closures the way bellman's `cs.enforce(|lc| lc +
//! (coeff, var), ...)` builds them. With Vec every temporary is a heap block
//! (malloc, the pushes' growth, free); with SmallVec the one- and two-term
//! combinations stay inline and only the three-term one (`c`) spills to the
//! heap, in both builds alike. So the differences are known in advance: the
//! allocator's functions and `Vec::push`'s growth drop out of B, the site in
//! `c`'s closure allocates in both, the sites in `a`'s and `b`'s closures
//! only in A.
//!
//! Usage: lcbench [CONSTRAINTS] (default 400000). Prints a checksum, so that
//! the work cannot be optimized away.

use std::ops::Add;

#[cfg(not(feature = "small"))]
type Terms = Vec<(usize, u64)>;
#[cfg(feature = "small")]
type Terms = smallvec::SmallVec<[(usize, u64); 2]>;

/// A sum of (variable, coefficient) terms, as in bellman.
pub struct LinearCombination(Terms);

impl LinearCombination {
    fn zero() -> Self {
        LinearCombination(Terms::new())
    }
}

impl Add<(u64, usize)> for LinearCombination {
    type Output = LinearCombination;

    fn add(mut self, (coeff, var): (u64, usize)) -> LinearCombination {
        self.0.push((var, coeff));
        self
    }
}

/// Holds the assignment and folds each constraint's evaluation into a sum.
struct ConstraintSystem {
    values: Vec<u64>,
    acc: u64,
}

impl ConstraintSystem {
    /// Not inlined, so that the combinations reach it as built: the
    /// optimizer cannot then elide their heap blocks.
    #[inline(never)]
    fn eval(&self, lc: &LinearCombination) -> u64 {
        lc.0.iter()
            .fold(0u64, |s, &(v, c)| s.wrapping_add(self.values[v].wrapping_mul(c)))
    }

    fn enforce<A, B, C>(&mut self, a: A, b: B, c: C)
    where
        A: FnOnce(LinearCombination) -> LinearCombination,
        B: FnOnce(LinearCombination) -> LinearCombination,
        C: FnOnce(LinearCombination) -> LinearCombination,
    {
        let a = a(LinearCombination::zero());
        let b = b(LinearCombination::zero());
        let c = c(LinearCombination::zero());
        let ab = self.eval(&a).wrapping_mul(self.eval(&b));
        self.acc = self.acc.rotate_left(5) ^ ab ^ self.eval(&c);
    }
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(400_000);
    let mut cs = ConstraintSystem {
        values: (0..1024u64).map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15)).collect(),
        acc: 0,
    };
    for i in 0..n {
        let (x, y, z) = (i % 1024, (i * 7 + 1) % 1024, (i * 13 + 2) % 1024);
        let k = i as u64;
        cs.enforce(
            |lc| lc + (k | 1, x),
            |lc| lc + (1, y) + (k ^ 3, z),
            |lc| lc + (2, x) + (3, y) + (k, z),
        );
    }
    println!("{:016x}", cs.acc);
}
