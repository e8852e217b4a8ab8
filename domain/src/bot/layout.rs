//! The tactician's setups: the flag on the back row behind bombs, the rest
//! placed by row preference, all varied by the seed (docs/bots.md).

use crate::rng::SplitMix64;
use crate::{Color, Piece, Placement, Setup, Square, Variant};

/// The square `row` rows in front of `color`'s back row, on `file`.
fn square(color: Color, file: u8, row: u8) -> Option<Square> {
    let rank = match color {
        Color::Red => 1 + row,
        Color::Blue => 10u8.checked_sub(row)?,
    };
    Square::from_file_rank(file, rank)
}

/// How much `piece` likes standing `row` rows in front of the back row
/// (0 = back row), for a zone `depth` rows deep.
fn liking(piece: Piece, row: u8, depth: u8) -> u64 {
    let front = row + 1 == depth;
    let back = row == 0;
    match piece {
        Piece::Scout if front => 6,
        Piece::Scout => 2,
        Piece::Miner if back || row == 1 => 5,
        Piece::Miner => 1,
        Piece::Marshal | Piece::General if front => 2,
        Piece::Marshal | Piece::General if back => 1,
        Piece::Marshal | Piece::General => 5,
        Piece::Spy if back || front => 1,
        Piece::Spy => 5,
        Piece::Bomb if front => 0,
        Piece::Bomb => 3,
        Piece::Colonel | Piece::Major if back => 2,
        Piece::Colonel | Piece::Major => 4,
        Piece::Sergeant | Piece::Lieutenant if front => 5,
        _ => 3,
    }
}

/// Moves `square` from `free` to `placed` with `piece`; `false` if it was
/// not free.
fn take(
    free: &mut Vec<Square>,
    placed: &mut Vec<(Square, Piece)>,
    square: Square,
    piece: Piece,
) -> bool {
    let Some(i) = free.iter().position(|&s| s == square) else {
        return false;
    };
    free.swap_remove(i);
    placed.push((square, piece));
    true
}

/// Takes one `piece` out of `army`; `false` if there was none.
fn remove(army: &mut Vec<Piece>, piece: Piece) -> bool {
    army.iter()
        .position(|&p| p == piece)
        .map(|i| army.swap_remove(i))
        .is_some()
}

/// A setup with the flag on the back row, a bomb on each side of it and in
/// front of it (as many as the army has), the other pieces by row
/// preference. Falls back to a random setup should the result not validate
/// (it always does for the three variants).
pub(crate) fn protected(variant: Variant, color: Color, seed: u64) -> Setup {
    let mut rng = SplitMix64::new(seed ^ 0x7AC7_1C1A_u64 ^ ((color.index() as u64) << 62));
    let depth = variant.zone_depth();
    let mut placed: Vec<(Square, Piece)> = Vec::new();
    let mut free: Vec<Square> = variant.zone(color).collect();
    // The flag: a corner one time in three, otherwise anywhere on the back row.
    let file = if rng.below(3) == 0 {
        if rng.below(2) == 0 {
            0
        } else {
            9
        }
    } else {
        rng.below(10) as u8
    };
    let mut army: Vec<Piece> = variant
        .army()
        .flat_map(|(p, n)| std::iter::repeat_n(p, n as usize))
        .collect();
    if let Some(flag) = square(color, file, 0) {
        if remove(&mut army, Piece::Flag) {
            take(&mut free, &mut placed, flag, Piece::Flag);
        }
    }
    // Bombs: in front first, then the sides in a random order.
    let mut guards = vec![square(color, file, 1)];
    let mut sides = [
        file.checked_sub(1).and_then(|f| square(color, f, 0)),
        square(color, file + 1, 0),
    ];
    rng.shuffle(&mut sides);
    guards.extend(sides);
    for guard in guards.into_iter().flatten() {
        if army.contains(&Piece::Bomb) && take(&mut free, &mut placed, guard, Piece::Bomb) {
            remove(&mut army, Piece::Bomb);
        }
    }
    // The rest, strongest wishes first: each piece draws a square weighted
    // by how much it likes that square's row.
    rng.shuffle(&mut army);
    army.sort_by_key(|p| match p {
        Piece::Bomb => 0,
        Piece::Marshal | Piece::General | Piece::Spy => 1,
        Piece::Miner | Piece::Scout => 2,
        _ => 3,
    });
    for piece in army {
        let row_of = |s: &Square| match color {
            Color::Red => s.rank() - 1,
            Color::Blue => 10 - s.rank(),
        };
        let weights: Vec<u64> = free
            .iter()
            .map(|s| liking(piece, row_of(s), depth))
            .collect();
        let total: u64 = weights.iter().sum();
        let chosen = if total == 0 {
            free.first().copied()
        } else {
            let mut pick = (rng.next_u64() % total) as i64;
            free.iter()
                .zip(&weights)
                .find(|(_, &w)| {
                    pick -= w as i64;
                    pick < 0
                })
                .map(|(&s, _)| s)
        };
        if let Some(square) = chosen {
            take(&mut free, &mut placed, square, piece);
        }
    }
    Placement::from_pairs(
        placed
            .iter()
            .map(|(s, p)| (s.to_string(), p.name().to_string())),
    )
    .validate(variant, color)
    .unwrap_or_else(|_| Setup::random(variant, color, seed))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn every_variant_gets_a_valid_protected_setup() {
        for variant in Variant::ALL {
            for color in Color::ALL {
                for seed in 0..50 {
                    let setup = protected(variant, color, seed);
                    assert_ne!(setup, protected(variant, color, seed + 1000));
                    let flag = setup
                        .pieces()
                        .iter()
                        .find(|(_, p)| *p == Piece::Flag)
                        .map(|(s, _)| *s);
                    let back = match color {
                        Color::Red => 1,
                        Color::Blue => 10,
                    };
                    let flag = flag.unwrap();
                    assert_eq!(flag.rank(), back, "{variant} {color} {seed}");
                    let front = Square::from_file_rank(flag.file(), if back == 1 { 2 } else { 9 });
                    assert!(
                        setup.pieces().contains(&(front.unwrap(), Piece::Bomb)),
                        "{variant} {color} {seed}: no bomb in front of the flag"
                    );
                }
            }
        }
    }
}
