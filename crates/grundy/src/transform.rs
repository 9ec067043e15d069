//! The Walsh–Hadamard transform, shared by the sparse engine (choosing its
//! rare/common split from value counts) and the counting of positions by
//! nim-sum (XOR convolution becomes a pointwise product).

/// The Walsh–Hadamard transform of `v` in place (`v.len()` a power of two),
/// with `butterfly(x, y) = (x + y, x - y)` in the caller's arithmetic:
/// `W(v)[m] = sum_k v[k] (-1)^{|k & m|}`. Applying it twice multiplies by
/// `v.len()`.
pub(crate) fn walsh_hadamard<T>(v: &mut [T], butterfly: impl Fn(&T, &T) -> (T, T)) {
    let size = v.len();
    let mut half = 1;
    while half < size {
        for block in (0..size).step_by(2 * half) {
            for i in block..block + half {
                let (x, y) = butterfly(&v[i], &v[i + half]);
                v[i] = x;
                v[i + half] = y;
            }
        }
        half *= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transform_matches_the_definition_and_inverts() {
        let v: Vec<i64> = vec![3, 0, 5, 1, 0, 0, 2, 7];
        let mut w = v.clone();
        walsh_hadamard(&mut w, |a, b| (a + b, a - b));
        for (m, &wm) in w.iter().enumerate() {
            let direct: i64 = v
                .iter()
                .enumerate()
                .map(|(k, &x)| if (k & m).count_ones() % 2 == 0 { x } else { -x })
                .sum();
            assert_eq!(wm, direct);
        }
        walsh_hadamard(&mut w, |a, b| (a + b, a - b));
        assert_eq!(w, v.iter().map(|x| x * 8).collect::<Vec<_>>());
    }
}
