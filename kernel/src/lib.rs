//! naqala's native engine: the shipped rules of Five Tribes in Rust, driven from Python.
//!
//! The Python engine is the reference. Everything here is proven equal to it by the
//! differential harness (`tests/test_native*.py`, `bench/native.py --verify`): same draws,
//! same state JSON, same legal actions in the same order. The pure parts (this crate
//! without the `python` feature) are tested with `cargo test`; `python.rs` is the thin
//! PyO3 layer that `naqala.native` imports as `naqala.native._native`.

/// mimalloc: the kernel allocates a state per action, and a batch's games move between
/// threads (bench/vector_threads.py, bench/native.py measure what it buys)
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod actions;
pub mod callbacks;
pub mod content;
pub mod effects;
pub mod envs;
pub mod extras;
pub mod geometry;
pub mod greedy;
pub mod greedy_player;
pub mod hook_reads;
pub mod limits;
pub mod mcts;
pub mod moves;
pub mod names;
pub mod observe;
pub mod pay;
pub mod perft;
pub mod player;
pub mod playout;
pub mod profile;
pub mod providers;
pub mod reading;
pub mod results;
pub mod rng;
pub mod rules;
pub mod score_line;
pub mod search;
pub mod seats;
pub mod setup;
pub mod shared_rules;
pub mod state;
pub mod statecheck;
pub mod statejson;
pub mod stats;
pub mod suits;
pub mod terrain;
pub mod typed_settings;
pub mod unported;
pub mod variants;
pub mod verdict;
pub mod views;

#[cfg(feature = "python")]
mod py_state;
#[cfg(feature = "python")]
mod python;
#[cfg(feature = "python")]
mod python_args;
#[cfg(feature = "python")]
mod python_envs;
#[cfg(feature = "python")]
mod state_view;
