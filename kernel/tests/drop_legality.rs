//! Drop legality of the kernel's move lister (`src/moves.rs`, the drops the greedy and
//! search players walk) pinned branch by branch (issue #40): a bug in its fast path once
//! passed every other test, since the game's own options come from `src/rules.rs` and
//! perft counts walks without asking for drops.
//!
//! Two checks, on the repository's shared test data: every rule of
//! `tests/data/drop-rules.json` (a position of the base game's board and the exact options
//! it offers, the same table `tests/test_drop_legality.py` holds the Python engine and the
//! kernel's game state to), and every board file of `tests/perft`, its moves listed one
//! drop at a time by `legal_starts` and `legal_drops`, to the numbers of `expected.json`
//! with no drop offered that leads nowhere.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use naqala_kernel::content::MAX_COLOURS;
use naqala_kernel::geometry::Geometry;
use naqala_kernel::moves::{colour_masks, legal_drops, legal_starts};
use naqala_kernel::state::{Counts, NOBODY};
use serde_json::Value;

/// The colour letters of board files, in colour order (docs/formats.md).
const LETTERS: &str = "YWGBRP";

fn repository_file(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

fn read_json(path: &Path) -> Value {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn colour_of(letter: char) -> usize {
    LETTERS.find(letter).expect("a colour letter")
}

fn counts_of(letters: &str) -> Counts {
    let mut counts = [0; MAX_COLOURS];
    for letter in letters.chars() {
        counts[colour_of(letter)] += 1;
    }
    counts
}

/// A tile named like a chess square (`c3`: column c, row 3, `a1` top-left).
fn tile_of(name: &str, cols: usize) -> usize {
    let column = usize::from(name.as_bytes()[0] - b'a');
    let row: usize = name[1..].parse().expect("a row number");
    (row - 1) * cols + column
}

fn name_of(tile: usize, cols: usize) -> String {
    let column = char::from(b'a' + u8::try_from(tile % cols).expect("a column letter"));
    format!("{column}{}", tile / cols + 1)
}

/// A move in progress: the board (the start emptied, the drops so far on it), the hand
/// left and where the walk stands.
struct Walk {
    board: Vec<Counts>,
    hand: Counts,
    here: usize,
    prev: i8,
}

impl Walk {
    fn drop(&mut self, tile: usize, colour: usize) {
        self.board[tile][colour] += 1;
        self.hand[colour] -= 1;
        self.prev = i8::try_from(self.here).expect("a tile of the board");
        self.here = tile;
    }
}

#[test]
fn the_move_lister_offers_exactly_what_each_rule_allows() {
    let table = read_json(&repository_file("tests/data/drop-rules.json"));
    let letters = table["letters"].as_str().expect("letters");
    assert!(LETTERS.starts_with(letters));
    let colours = letters.len();
    let (rows, cols) = (5, 6);
    let geo = Geometry::new(rows, cols, 0, &[]);
    let cols = usize::from(cols);
    let rules = table["rules"].as_array().expect("rules");
    assert!(rules.len() >= 10);
    let mut broken = Vec::new();
    for rule in rules {
        let said = rule["rule"].as_str().expect("rule");
        let mut board = vec![[0; MAX_COLOURS]; geo.size];
        for (name, meeples) in rule["meeples"].as_object().expect("meeples") {
            board[tile_of(name, cols)] = counts_of(meeples.as_str().expect("letters"));
        }
        let played: Vec<&str> = rule["played"]
            .as_array()
            .expect("played")
            .iter()
            .map(|a| a.as_str().expect("an action"))
            .collect();
        let mut offered: Vec<String> = if let Some((pick, drops)) = played.split_first() {
            let start = tile_of(pick.strip_prefix("pick ").expect("a pick first"), cols);
            let hand = board[start];
            board[start] = [0; MAX_COLOURS];
            let mut walk = Walk {
                board,
                hand,
                here: start,
                prev: NOBODY,
            };
            for action in drops {
                let words: Vec<&str> = action.split(' ').collect();
                let letter = words[2].chars().next().expect("a colour letter");
                walk.drop(tile_of(words[1], cols), colour_of(letter));
            }
            legal_drops(&geo, &walk.board, walk.here, walk.prev, &walk.hand, colours)
                .into_iter()
                .map(|(tile, colour)| {
                    format!("drop {} {}", name_of(tile, cols), &LETTERS[colour..=colour])
                })
                .collect()
        } else {
            let masks = colour_masks(&board, colours);
            legal_starts(&geo, &board, &masks, colours)
                .into_iter()
                .map(|tile| format!("pick {}", name_of(tile, cols)))
                .collect()
        };
        // the table is in canonical order: on single-digit rows, alphabetical
        offered.sort();
        let expected: Vec<&str> = rule["options"]
            .as_array()
            .expect("options")
            .iter()
            .map(|o| o.as_str().expect("an option"))
            .collect();
        if offered != expected {
            broken.push(format!(
                "{said} ({}):\n  offered {offered:?}\n  allowed {expected:?}",
                rule["branch"]
            ));
        }
    }
    assert!(broken.is_empty(), "broken rules:\n{}", broken.join("\n"));
}

/// The moves and distinct (start, path) pairs of a board, listed drop by drop.
#[derive(Default)]
struct Listed {
    moves: usize,
    paths: HashSet<Vec<usize>>,
}

impl Listed {
    fn walk(&mut self, geo: &Geometry, walk: &mut Walk, path: &mut Vec<usize>) {
        let options = legal_drops(
            geo,
            &walk.board,
            walk.here,
            walk.prev,
            &walk.hand,
            MAX_COLOURS,
        );
        assert!(!options.is_empty(), "a dead end after {path:?}");
        for (tile, colour) in options {
            assert!(walk.hand[colour] > 0, "a colour not in hand offered");
            path.push(tile);
            if walk.hand.iter().map(|&n| usize::from(n)).sum::<usize>() == 1 {
                self.moves += 1;
                self.paths.insert(path.clone());
            } else {
                let (here, prev) = (walk.here, walk.prev);
                walk.drop(tile, colour);
                self.walk(geo, walk, path);
                walk.board[tile][colour] -= 1;
                walk.hand[colour] += 1;
                (walk.here, walk.prev) = (here, prev);
            }
            path.pop();
        }
    }
}

fn tiles_of(value: &Value) -> Vec<u8> {
    value
        .as_array()
        .map(|a| {
            a.iter()
                .map(|t| t.as_u64().expect("a tile") as u8)
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn the_move_lister_lists_the_perft_board_files_to_their_numbers() {
    let dir = repository_file("tests/perft");
    let expected = read_json(&dir.join("expected.json"));
    let mut files = 0;
    for entry in fs::read_dir(&dir).expect("tests/perft") {
        let path = entry.expect("a board file").path();
        let name = path.file_name().and_then(|n| n.to_str()).expect("a name");
        if !name.ends_with(".json") || name == "expected.json" {
            continue;
        }
        let doc = read_json(&path);
        let rows = doc["rows"].as_u64().expect("rows") as u8;
        let cols = doc["cols"].as_u64().expect("cols") as u8;
        let impassable = tiles_of(&doc["impassable"])
            .iter()
            .fold(0u64, |mask, &t| mask | 1 << t);
        let walls: Vec<(u8, u8)> = doc["walls"]
            .as_array()
            .map(|walls| {
                walls
                    .iter()
                    .map(|pair| {
                        let pair = tiles_of(pair);
                        (pair[0].min(pair[1]), pair[0].max(pair[1]))
                    })
                    .collect()
            })
            .unwrap_or_default();
        let geo = Geometry::new(rows, cols, impassable, &walls);
        let meeples: Vec<Counts> = doc["meeples"]
            .as_array()
            .expect("meeples")
            .iter()
            .map(|m| counts_of(m.as_str().expect("letters")))
            .collect();
        let masks = colour_masks(&meeples, MAX_COLOURS);
        let mut listed = Listed::default();
        for start in legal_starts(&geo, &meeples, &masks, MAX_COLOURS) {
            let mut board = meeples.clone();
            let hand = board[start];
            board[start] = [0; MAX_COLOURS];
            let mut walk = Walk {
                board,
                hand,
                here: start,
                prev: NOBODY,
            };
            let before = listed.moves;
            listed.walk(&geo, &mut walk, &mut vec![start]);
            assert!(
                listed.moves > before,
                "{name}: start {start} leads to no move"
            );
        }
        let numbers = (listed.moves as u64, listed.paths.len() as u64);
        let want = &expected[name];
        assert_eq!(
            numbers,
            (
                want["moves"].as_u64().expect("moves"),
                want["paths"].as_u64().expect("paths")
            ),
            "{name}"
        );
        files += 1;
    }
    assert!(files >= 9, "the board files of tests/perft");
}
