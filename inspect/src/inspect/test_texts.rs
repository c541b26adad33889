//! Texts for the tests that compare a fast measure with the slow one it stands for.

/// `count` pseudo-random texts over `alphabet`, the same for the same `seed`: the `n`th is
/// `n % lengths` characters long.
pub(super) fn random_texts(alphabet: &str, seed: u64, count: usize, lengths: usize) -> Vec<String> {
    let alphabet: Vec<char> = alphabet.chars().collect();
    let mut state = seed;
    (0..count)
        .map(|n| {
            (0..n % lengths)
                .map(|_| {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    alphabet[(state >> 33) as usize % alphabet.len()]
                })
                .collect()
        })
        .collect()
}
