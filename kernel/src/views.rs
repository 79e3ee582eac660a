//! What one seat may know of a state, and determinization (`core/views.py`): a full
//! state agreeing with everything the seat sees, its hidden parts dealt again.
//!
//! The players decide on determinizations, so a native player can use nothing it may
//! not see, exactly as the Python players cannot; the deal draws from the same
//! SplitMix64 stream in the same order, so both engines decide on the same deal.

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::content::Content;
use crate::rng::Rng;
use crate::state::{Deck, State, NOBODY};
use crate::statejson::state_to_json;

/// `hidden_decks`: the indices of the decks whose cards in hand only their holder sees,
/// as the plugins name them (hook `naqala_hidden_decks`, in the content JSON; each name
/// is checked to be a deck when the content is read).
pub fn hidden_decks(content: &Content) -> Vec<usize> {
    content
        .doc
        .hidden_decks
        .iter()
        .filter_map(|name| content.deck_index(name))
        .collect()
}

/// `turn_owner`: the player whose turn is in progress (`NOBODY` outside turns).
pub fn turn_owner(state: &State) -> i8 {
    match &state.turn {
        None => NOBODY,
        Some(turn) => state.markers.as_slice()[usize::from(turn.marker)],
    }
}

/// The deck a card belongs to (`deck_of`: resources for a card of no known deck).
fn deck_of(content: &Content, card: u8) -> usize {
    content
        .deck_index(&content.doc.cards[usize::from(card)].deck)
        .unwrap_or(0)
}

/// Cards in the order Python's `sorted` gives their ids: by each id's rank among the
/// ids (`KindRanks::card_id`, equal for equal ids), found once per content, so a
/// determinization compares numbers, not text.
fn sort_by_id(content: &Content, cards: &mut [u8]) {
    let ranks = &content.kind_ranks.card_id;
    cards.sort_by_key(|&card| ranks[usize::from(card)]);
}

/// `determinize`: the other players' hidden cards and the cards being chosen from (when
/// hidden) dealt again with every draw pile from what `seat` has not seen, the others'
/// coins set to the seat's own, and a new generator; a function of the view and `seed`.
pub fn determinize(content: &Content, state: &State, seat: usize, seed: u64) -> State {
    let mut rng = Rng::new(seed);
    let hidden = hidden_decks(content);
    let mut result = state.clone();
    let revealed: Vec<u8> = match &state.turn {
        Some(turn) if turn_owner(state) != seat as i8 => turn.revealed.to_vec(),
        _ => Vec::new(),
    };
    let mut new_revealed = revealed.clone();
    for (index, deck) in state.decks.iter().enumerate() {
        let holders: Vec<usize> = (0..state.players.len())
            .filter(|&p| p != seat && hidden.contains(&index))
            .collect();
        let mut pool: Vec<u8> = deck.draw().to_vec();
        for &p in &holders {
            pool.extend_from_slice(result.players[p].hands.hand(index));
        }
        let places: Vec<usize> = (0..revealed.len())
            .filter(|&i| deck_of(content, revealed[i]) == index)
            .collect();
        pool.extend(places.iter().map(|&i| revealed[i]));
        if pool.is_empty() {
            continue;
        }
        sort_by_id(content, &mut pool);
        rng.shuffle(&mut pool);
        let mut rest = pool.as_slice();
        let sorted = content.doc.decks[index].order == "sorted";
        for &p in &holders {
            let size = result.players[p].hands.hand(index).len();
            let mut cards = rest[..size].to_vec();
            rest = &rest[size..];
            if sorted {
                sort_by_id(content, &mut cards);
            }
            result.players[p].hands = result.players[p].hands.with_hand(index, &cards);
        }
        for &i in &places {
            new_revealed[i] = rest[0];
            rest = &rest[1..];
        }
        result.decks[index] = Deck::new(rest, deck.row(), deck.discard());
    }
    let coins = state.players[seat].coins;
    for player in result.players.iter_mut() {
        player.coins = coins;
    }
    result.rng = Rng::new(rng.next64());
    if !revealed.is_empty() {
        if let Some(turn) = result.turn.as_mut() {
            turn.revealed = new_revealed.into_boxed_slice();
        }
    }
    result
}

/// `sees_revealed`: only the turn's player sees the cards being chosen from.
fn sees_revealed(state: &State, seat: usize) -> bool {
    turn_owner(state) == seat as i8
}

/// `view_for`: what `seat` may see of `state`, as the JSON value Python builds: the state
/// document with the other players' coins null and their hidden cards counted per deck,
/// each draw pile a count, the cards being chosen from a count unless it is the seat's
/// turn, and no generator.
pub fn view_for(content: &Content, state: &State, seat: usize) -> Value {
    let mut data: Value = serde_json::from_str(&state_to_json(content, state))
        .expect("the kernel writes state JSON it can read");
    let hidden = hidden_decks(content);
    let object = data.as_object_mut().expect("a state document is an object");
    object.insert("format".into(), Value::from("naqala-view"));
    object.insert("seat".into(), Value::from(seat));
    object.shift_remove("rng");
    if let Some(Value::Array(players)) = object.get_mut("players") {
        for (index, player) in players.iter_mut().enumerate() {
            if index == seat {
                continue;
            }
            let player = player.as_object_mut().expect("a player is an object");
            player.insert("coins".into(), Value::Null);
            let mut counts = Map::new();
            for &deck in &hidden {
                let name = &content.doc.decks[deck].id;
                if let Some(Value::Object(hands)) = player.get_mut("hands") {
                    hands.shift_remove(name);
                }
                let held = state.players[index].hands.hand(deck).len();
                counts.insert(name.clone(), Value::from(held));
            }
            player.insert("hidden".into(), Value::Object(counts));
        }
    }
    if let Some(Value::Object(decks)) = object.get_mut("decks") {
        for deck in decks.values_mut() {
            if let Some(draw) = deck.get("draw").and_then(Value::as_array).map(Vec::len) {
                deck["draw"] = Value::from(draw);
            }
        }
    }
    if let Some(turn) = object.get_mut("turn").filter(|t| !t.is_null()) {
        if !sees_revealed(state, seat) {
            let count = state.turn.as_ref().map_or(0, |t| t.revealed.len());
            turn["revealed"] = Value::from(count);
        }
    }
    data
}

/// `view_digest` (agents/mcts.py): the first 8 bytes, big-endian, of the SHA-256 of the
/// view as `json.dumps(view, sort_keys=True)` writes it; the search draws from it.
pub fn view_digest(content: &Content, state: &State, seat: usize) -> u64 {
    let mut text = String::new();
    python_json(&view_for(content, state, seat), &mut text);
    let digest = Sha256::digest(text.as_bytes());
    u64::from_be_bytes(digest[..8].try_into().expect("a digest has 32 bytes"))
}

/// JSON as Python's `json.dumps(value, sort_keys=True)` writes it: `", "` and `": "`
/// between items, keys sorted, every character beyond ASCII escaped.
pub fn python_json(value: &Value, out: &mut String) {
    sorted_json(value, WIDE, out);
}

/// `view_text` (envs/observation.py): what `seat` observes of `state` as canonical JSON,
/// `json.dumps(view, sort_keys=True, separators=(",", ":"))`.
pub fn view_text(content: &Content, state: &State, seat: usize) -> String {
    let mut text = String::new();
    sorted_json(&view_for(content, state, seat), COMPACT, &mut text);
    text
}

/// The separators between items and between a key and its value.
type Separators = (&'static str, &'static str);
/// `json.dumps`'s default separators, and the compact ones.
const WIDE: Separators = (", ", ": ");
const COMPACT: Separators = (",", ":");

/// JSON with sorted keys and every character beyond ASCII escaped, as `json.dumps` with
/// `sort_keys=True` and `separators` writes it.
fn sorted_json(value: &Value, separators: Separators, out: &mut String) {
    let (between, after_key) = separators;
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => python_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(between);
                }
                sorted_json(item, separators, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push_str(between);
                }
                python_string(key, out);
                out.push_str(after_key);
                sorted_json(&map[key], separators, out);
            }
            out.push('}');
        }
    }
}

/// A string as `json.dumps` writes it with `ensure_ascii`.
fn python_string(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_is_written_as_python_writes_it() {
        let value: Value =
            serde_json::from_str(r#"{"b": [1, null, true], "a": "é\"x\n", "c": {}}"#).unwrap();
        let mut out = String::new();
        python_json(&value, &mut out);
        // json.dumps({"b": [1, None, True], "a": "é\"x\n", "c": {}}, sort_keys=True)
        assert_eq!(
            out,
            r#"{"a": "\u00e9\"x\n", "b": [1, null, true], "c": {}}"#
        );
    }
}
