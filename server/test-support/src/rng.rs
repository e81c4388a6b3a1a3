//! A deterministic pseudo-random sequence (`SplitMix64`), so that the protocol tests, the
//! robustness tests and the latency benchmark are reproducible without a dependency.

pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n`; 0 when `n` is 0.
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Damaged copies of `bytes` for a robustness test: cut at every `cut_step`-th byte, then
/// `changed` copies with one to four bytes set to random values (from `seed`).
pub fn damaged_copies(bytes: &[u8], cut_step: usize, changed: usize, seed: u64) -> Vec<Vec<u8>> {
    let mut rng = Rng::new(seed);
    let mut damaged: Vec<Vec<u8>> =
        (0..bytes.len()).step_by(cut_step.max(1)).map(|cut| bytes[..cut].to_vec()).collect();
    for _ in 0..changed {
        let mut copy = bytes.to_vec();
        for _ in 0..=rng.below(4) {
            let at = rng.below(copy.len());
            if let Some(byte) = copy.get_mut(at) {
                *byte = (rng.next_u64() & 0xff) as u8;
            }
        }
        damaged.push(copy);
    }
    damaged
}
