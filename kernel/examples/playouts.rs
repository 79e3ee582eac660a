//! Random playouts on the kernel alone, for a profiler (`perf record`): the rules built
//! from a content file that `python bench/kernel_profile.py` writes, then whole games
//! played until the CPU-time budget is spent; prints µs per action.
//!
//!     cargo run --release --example playouts -- content.json 4 3.0

use naqala_kernel::content::Content;
use naqala_kernel::perft::process_time;
use naqala_kernel::playout::random_playout;
use naqala_kernel::rules::Rules;
use naqala_kernel::setup::new_game;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let [_, path, players, seconds] = args.as_slice() else {
        return Err("usage: playouts CONTENT.json PLAYERS SECONDS".into());
    };
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let content = Content::from_json(&text)?;
    let rules = Rules::new(&content);
    let players: usize = players.parse().map_err(|e| format!("players: {e}"))?;
    let seconds: f64 = seconds.parse().map_err(|e| format!("seconds: {e}"))?;
    let start = process_time();
    let (mut games, mut actions) = (0u64, 0u64);
    while process_time() - start < seconds {
        let state = new_game(&rules, players, games).map_err(|e| e.0)?;
        let seeds: Vec<u64> = (0..players as u64).map(|s| games * 1000 + s).collect();
        let (_, count) = random_playout(&rules, &state, &seeds).map_err(|e| e.0)?;
        games += 1;
        actions += count;
    }
    let spent = process_time() - start;
    println!(
        "{games} games, {actions} actions, {:.3} µs an action",
        spent * 1e6 / actions as f64
    );
    Ok(())
}
