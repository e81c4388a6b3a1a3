//! What the classic Unreal engines (UE1: Unreal, UT99, Deus Ex, Rune; UE2: UT2004 and kin)
//! do, as data: the `#exec` command table ([`exec`]: every command, subcommand and key, which
//! generation reads it, what it means), the poly flags of each generation ([`poly_flags`]),
//! the games ([`Game`]: each game's generation, and whether its engine is Epic's own or
//! a licensee's), and the stock games' actor classes ([`stock_actor_is_player_start`]). One
//! home for engine facts, below the parsers: the `#exec` line parser resolves commands here, and the checks, hovers and completions of the analysis crate read
//! the same tables. Plain tables and lookups; no parsing, no IO.

pub mod exec;
mod game;
mod generation;
pub mod poly_flags;
mod stock;
#[rustfmt::skip]
mod stock_actors;

pub use game::{Game, Patch};
pub use generation::{Engines, Generation};
pub use stock::stock_actor_is_player_start;
