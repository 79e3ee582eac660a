//! Whole games on the kernel alone, for a profiler (`perf record`) and for before/after
//! figures of the hot loop: the rules built from a content file (the merged content
//! `naqala.native.content.content_data` gives, as JSON), then games played until the
//! CPU-time budget is spent. `random`: random playouts, µs per action; `greedy`: every
//! seat the kernel's greedy player, the mean and 99th percentile of a decision in µs.
//!
//!     cargo run --release --example playouts -- content.json 4 3.0 random
//!     cargo run --release --example playouts -- content.json 4 3.0 greedy

use naqala_kernel::content::Content;
use naqala_kernel::perft::process_time;
use naqala_kernel::playout::random_playout;
use naqala_kernel::rules::Rules;
use naqala_kernel::seats::player;
use naqala_kernel::setup::new_game;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let [_, path, players, seconds, mode] = args.as_slice() else {
        return Err("usage: playouts CONTENT.json PLAYERS SECONDS random|greedy".into());
    };
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let content = Content::from_json(&text)?;
    let rules = Rules::new(&content);
    let players: usize = players.parse().map_err(|e| format!("players: {e}"))?;
    let seconds: f64 = seconds.parse().map_err(|e| format!("seconds: {e}"))?;
    match mode.as_str() {
        "random" => random_games(&rules, players, seconds),
        "greedy" => greedy_games(&rules, players, seconds),
        _ => Err(format!("mode {mode:?}: random or greedy")),
    }
}

fn random_games(rules: &Rules, players: usize, seconds: f64) -> Result<(), String> {
    let start = process_time();
    let (mut games, mut actions) = (0u64, 0u64);
    while process_time() - start < seconds {
        let state = new_game(rules, players, games).map_err(|e| e.0)?;
        let seeds: Vec<u64> = (0..players as u64).map(|s| games * 1000 + s).collect();
        let (_, count) = random_playout(rules, &state, &seeds).map_err(|e| e.0)?;
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

fn greedy_games(rules: &Rules, players: usize, seconds: f64) -> Result<(), String> {
    let start = process_time();
    let mut times: Vec<f64> = Vec::new();
    let mut games = 0u64;
    while process_time() - start < seconds {
        let mut state = new_game(rules, players, games).map_err(|e| e.0)?;
        let mut seats: Vec<_> = (0..players as u64)
            .map(|s| player("greedy", games * 1000 + s).ok_or("no greedy player"))
            .collect::<Result<_, _>>()?;
        loop {
            let options = rules.legal_actions(&state).map_err(|e| e.0)?;
            if options.is_empty() {
                break;
            }
            let seat = state.decision.player as usize;
            let before = process_time();
            let choice = seats[seat]
                .choose(rules, &state, &options)
                .map_err(|e| e.0)?;
            times.push(process_time() - before);
            state = rules.apply(state, &options[choice]).map_err(|e| e.0)?;
        }
        games += 1;
    }
    times.sort_by(f64::total_cmp);
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let p99 = times[(times.len() * 99 / 100).min(times.len() - 1)];
    println!(
        "{games} games, {} decisions: mean {:.1} µs, p99 {:.1} µs",
        times.len(),
        mean * 1e6,
        p99 * 1e6
    );
    Ok(())
}
