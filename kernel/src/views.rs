//! What one seat may know of a state, and determinization (`core/views.py`): a full
//! state agreeing with everything the seat sees, its hidden parts dealt again.
//!
//! The players decide on determinizations, so a native player can use nothing it may
//! not see, exactly as the Python players cannot; the deal draws from the same
//! SplitMix64 stream in the same order, so both engines decide on the same deal.

use crate::content::Content;
use crate::rng::Rng;
use crate::state::{Deck, State, NOBODY};

/// The decks whose cards in hand only their holder sees (hook `naqala_hidden_decks`):
/// the base game's resources and the Artisans' items, the only plugins with that hook
/// the kernel plays.
pub const HIDDEN_DECKS: &[&str] = &["resources", "items"];

/// `hidden_decks`: the indices of the content's hidden decks.
pub fn hidden_decks(content: &Content) -> Vec<usize> {
    HIDDEN_DECKS
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

/// Cards in the order Python's `sorted` gives their ids.
fn sort_by_id(content: &Content, cards: &mut [u8]) {
    cards.sort_by(|&a, &b| {
        let cards = &content.doc.cards;
        cards[usize::from(a)].id.cmp(&cards[usize::from(b)].id)
    });
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
