//! The actor classes the stock games of each generation ship (UE1: UT v469 and Unreal 227;
//! UE2: UT2004), as their class hierarchy decides one question the map check asks without a
//! game folder: can an actor of this class be a `PlayerStart`? A stock name not in the
//! table, or a licensee's class, is not known here.

use crate::stock_actors::{UE1, UE2};
use crate::Generation;

/// Whether the stock class `name` (bare, any case) descends from `PlayerStart` (or is it):
/// `None` when `name` is no stock actor class of the generation, or, with no generation
/// known, when the two generations disagree or neither knows it.
pub fn stock_actor_is_player_start(generation: Option<Generation>, name: &str) -> Option<bool> {
    let lowercase = name.to_ascii_lowercase();
    let find = |table: &[(&str, bool)]| {
        table
            .binary_search_by(|(entry, _)| (*entry).cmp(lowercase.as_str()))
            .ok()
            .map(|i| table[i].1)
    };
    match generation {
        Some(Generation::Ue1) => find(UE1),
        Some(Generation::Ue2) => find(UE2),
        None => match (find(UE1), find(UE2)) {
            (Some(one), Some(two)) if one != two => None,
            (one, two) => one.or(two),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_are_sorted_lowercase_and_unique() {
        for table in [UE1, UE2] {
            assert!(table.windows(2).all(|pair| pair[0].0 < pair[1].0));
            assert!(table.iter().all(|(name, _)| name.bytes().all(|b| !b.is_ascii_uppercase())));
        }
    }

    #[test]
    fn stock_starts_and_others_are_told_apart() {
        for generation in [Some(Generation::Ue1), Some(Generation::Ue2), None] {
            assert_eq!(stock_actor_is_player_start(generation, "PlayerStart"), Some(true));
            assert_eq!(stock_actor_is_player_start(generation, "Light"), Some(false));
            assert_eq!(stock_actor_is_player_start(generation, "brush"), Some(false));
            assert_eq!(stock_actor_is_player_start(generation, "MyModClass"), None);
        }
        // UT2004's Onslaught start, unknown to UE1.
        assert_eq!(stock_actor_is_player_start(Some(Generation::Ue1), "xFieldPlayerStart"), None);
        assert_eq!(stock_actor_is_player_start(None, "xFieldPlayerStart"), Some(true));
        assert_eq!(
            stock_actor_is_player_start(Some(Generation::Ue1), "SinglePlayerOnlyStart"),
            Some(true)
        );
    }
}
