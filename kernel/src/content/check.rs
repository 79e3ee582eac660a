//! What a content document must mean before the kernel's rules read it.
//!
//! `naqala.native.content.content_data` writes the document from rules the Python engine
//! has checked already (`core/meaning.py`, `plugins/base/checks.py`); a library user may
//! hand the kernel any document, so the kernel checks again what its rules rely on:
//! names given once, cards of decks that exist, the two decks every game has first, the
//! base game's settings and tables, enough meeples to fill the board. The first problem
//! is refused in the words of the Python checks, naming the content path.

use std::collections::BTreeSet;

use crate::content::{ContentDoc, DJINNS, RESOURCES};
use crate::limits::MAX_DECKS;

/// The decks every game has, first and in this order (`core/engine.py`).
const FIRST_DECKS: [&str; 2] = [RESOURCES, DJINNS];

/// The settings the base game reads, each at least this much (`plugins/base/checks.py`).
const MINIMUM_SETTINGS: &[(&str, i64)] = &[
    ("meeples_per_tile", 1),
    ("starting_coins", 0),
    ("resource_row", 0),
    ("djinn_row", 0),
    ("vizier_vp", 0),
    ("vizier_bonus", 0),
    ("elder_vp", 0),
    ("small_market_cost", 0),
    ("small_market_reach", 1),
    ("small_market_take", 1),
    ("large_market_cost", 0),
    ("large_market_reach", 1),
    ("large_market_take", 1),
    ("sacred_place_elders", 1),
];

/// The most columns a board has (its tiles are named `a` to `z`).
const MAX_COLUMNS: i64 = 26;

/// `Ok` when the kernel's rules can read `doc`; else the first problem, as
/// `kernel content: path: what is wrong`.
pub fn check_content(doc: &ContentDoc) -> Result<(), String> {
    check_names(doc)
        .and_then(|()| check_stages(doc))
        .and_then(|()| check_decks(doc))
        .and_then(|()| check_settings(doc))
        .and_then(|()| check_tables(doc))
        .and_then(|()| check_player_counts(doc))
        .and_then(|()| check_solo(doc))
        .map_err(|problem| format!("kernel content: {problem}"))
}

/// `Err` naming the first of `ids` given twice.
fn once<'a>(what: &str, ids: impl IntoIterator<Item = &'a str>) -> Result<(), String> {
    let mut seen = BTreeSet::new();
    for id in ids {
        if !seen.insert(id) {
            return Err(format!("{what}: {id:?} is given twice"));
        }
    }
    Ok(())
}

fn check_names(doc: &ContentDoc) -> Result<(), String> {
    once("colours", doc.colours.iter().map(|c| c.id.as_str()))?;
    once("colours", doc.colours.iter().map(|c| c.letter.as_str()))?;
    once("tokens", doc.tokens.iter().map(|t| t.id.as_str()))?;
    once("tiles", doc.tiles.iter().map(|t| t.id.as_str()))?;
    once("cards", doc.cards.iter().map(|c| c.id.as_str()))?;
    once("decks", doc.decks.iter().map(|d| d.id.as_str()))?;
    once("in_play", doc.in_play.iter().map(String::as_str))?;
    let counts: Vec<String> = doc
        .player_counts
        .iter()
        .map(|c| c.players.to_string())
        .collect();
    once("player_counts", counts.iter().map(String::as_str))?;
    for (i, id) in doc.in_play.iter().enumerate() {
        if !doc.cards.iter().any(|c| &c.id == id) {
            return Err(format!("in_play[{i}]: no card {id:?}"));
        }
    }
    Ok(())
}

/// The stages the base game's rules enter by name.
const BASE_STAGES: &[&str] = &["bid", "pick", "drop", "kill", "sell"];

fn check_stages(doc: &ContentDoc) -> Result<(), String> {
    let has = |stage: &str| doc.stages.iter().any(|s| s == stage);
    if let Some(missing) = BASE_STAGES.iter().find(|s| !has(s)) {
        return Err(format!(
            "stages: no stage {missing:?} (the base game needs it)"
        ));
    }
    Ok(())
}

fn check_decks(doc: &ContentDoc) -> Result<(), String> {
    let ids: Vec<&str> = doc.decks.iter().map(|d| d.id.as_str()).collect();
    if !ids.starts_with(&FIRST_DECKS) {
        return Err(format!(
            "decks: {ids:?} do not begin with the decks every game has, {FIRST_DECKS:?}"
        ));
    }
    if ids.len() > MAX_DECKS {
        return Err(format!(
            "decks: {} decks, the kernel holds at most {MAX_DECKS}",
            ids.len()
        ));
    }
    for card in &doc.cards {
        if !ids.contains(&card.deck.as_str()) {
            return Err(format!(
                "cards.{}: no deck {:?} in these rules",
                card.id, card.deck
            ));
        }
        if card.count < 1 {
            return Err(format!(
                "cards.{}: count {} is below 1",
                card.id, card.count
            ));
        }
    }
    for (i, name) in doc.hidden_decks.iter().enumerate() {
        if !ids.contains(&name.as_str()) {
            return Err(format!(
                "hidden_decks[{i}]: no deck {name:?} in these rules"
            ));
        }
    }
    Ok(())
}

fn check_settings(doc: &ContentDoc) -> Result<(), String> {
    for &(key, least) in MINIMUM_SETTINGS {
        match doc.settings.get(key) {
            None => return Err(format!("settings.{key}: not set (the base game needs it)")),
            Some(&value) if value < least => {
                return Err(format!("settings.{key}: {value} is less than {least}"))
            }
            Some(_) => {}
        }
    }
    // enough meeples to put `meeples_per_tile` on every tile that holds meeples
    let per_tile = doc.settings.get("meeples_per_tile").copied().unwrap_or(1);
    let tiles = doc.tiles.iter().filter(|t| t.holds_meeples).count() as i64;
    let meeples: i64 = doc.colours.iter().map(|c| i64::from(c.count)).sum();
    if meeples < tiles.saturating_mul(per_tile) {
        return Err(format!(
            "tiles: {tiles} tiles hold meeples, {per_tile} each (settings.meeples_per_tile) \
             need {}, but the colours have {meeples}",
            tiles.saturating_mul(per_tile)
        ));
    }
    Ok(())
}

fn check_tables(doc: &ContentDoc) -> Result<(), String> {
    if !doc.tables.contains_key("turn_order_costs") {
        return Err("tables.turn_order_costs: not set (the base game needs it)".to_owned());
    }
    for (name, values) in &doc.tables {
        if name == "turn_order_costs" || name.starts_with("turn_order_costs_") {
            let dearest_first = values.windows(2).all(|w| w[0] >= w[1]);
            if values.is_empty() {
                return Err(format!("tables.{name}: the track has no spots"));
            }
            if !dearest_first
                || values
                    .iter()
                    .any(|&c| !(0..=i64::from(u32::MAX)).contains(&c))
            {
                return Err(format!(
                    "tables.{name}: {values:?} must list costs dearest first, none negative"
                ));
            }
        } else if let Some(tiles) = name.strip_prefix("board_") {
            let fits = values.len() == 2
                && values[0] >= 1
                && (1..=MAX_COLUMNS).contains(&values[1])
                && tiles.parse::<i64>().ok() == values[0].checked_mul(values[1]);
            if !fits {
                return Err(format!(
                    "tables.{name}: {values:?} is not [rows, cols] of {tiles} tiles (at most \
                     {MAX_COLUMNS} cols)"
                ));
            }
        }
    }
    let kinds = doc
        .cards
        .iter()
        .filter(|c| c.deck == FIRST_DECKS[0] && c.kind == "merchandise")
        .count();
    let values = doc.tables.get("suit_values").map_or(&[][..], Vec::as_slice);
    if values.len() < kinds {
        return Err(format!(
            "tables.suit_values: {} values for {kinds} kinds of merchandise",
            values.len()
        ));
    }
    Ok(())
}

fn check_player_counts(doc: &ContentDoc) -> Result<(), String> {
    for count in &doc.player_counts {
        let players = count.players;
        if players < 1 || count.markers < 1 {
            return Err(format!(
                "player_counts: a game of {players} players with {} markers each",
                count.markers
            ));
        }
        let table = format!("turn_order_costs_{players}");
        let costs = doc
            .tables
            .get(&table)
            .filter(|t| !t.is_empty())
            .or_else(|| doc.tables.get("turn_order_costs"))
            .map_or(0, Vec::len);
        let markers = u64::from(players) * u64::from(count.markers);
        if (costs as u64) < markers {
            return Err(format!(
                "tables.turn_order_costs: {costs} spots for the {markers} markers of a \
                 {players}-player game"
            ));
        }
    }
    Ok(())
}

/// Solo mode's dice address the board: the white die counts its columns and the black
/// die, less its two-tile face, its rows (`plugins/solo/checks.py`).
fn check_solo(doc: &ContentDoc) -> Result<(), String> {
    if !doc.is_solo() {
        return Ok(());
    }
    let setting = |key: &str| doc.settings.get(key).copied().unwrap_or(0);
    let sides = setting("die_sides");
    let tiles = doc.tiles.len() as i64;
    if !(2..=MAX_COLUMNS).contains(&sides) || sides.saturating_mul(sides - 1) != tiles {
        return Err(format!(
            "settings.die_sides: {sides}-sided dice do not address a board of {tiles} tiles"
        ));
    }
    let shape = doc.tables.get(&format!("board_{tiles}"));
    if shape.is_some_and(|s| s[..] != [sides - 1, sides]) {
        return Err(format!(
            "settings.die_sides: {sides}-sided dice address a {}x{sides} board, not \
             tables.board_{tiles}",
            sides - 1
        ));
    }
    if setting("two_tiles_on") != sides {
        return Err(format!(
            "settings.two_tiles_on: {} must be the black die's last face, {sides}",
            setting("two_tiles_on")
        ));
    }
    for key in ["assassins_lose", "djinns_lose", "non_player_camels"] {
        if setting(key) < 1 {
            return Err(format!("settings.{key}: must be at least 1"));
        }
    }
    Ok(())
}
