//! The common variants as settings of the base game (`plugins/base/variants.py`,
//! `core/tie_break.py`): a round cap, a tie-break, starting cards, colours the assassins
//! may not kill and a game without bids. Each is off when its setting is absent or at
//! its default, so the rules read them where they act, by name. The settings are read
//! with the content (`content::variant_settings`); this module is what they do in play.

use crate::content::Content;
use crate::state::{State, Track, NOBODY};
use crate::typed_settings::Scalar;
use crate::unported::Unported;

pub use crate::content::variant_settings::{
    Variants, BIDDING, PROTECT, ROUND_CAP, ROUND_CAP_FLAG, START_CARDS, TIE_BREAK,
};

/// `round_cap_reached`: the round now ending is the last one `end.after_round` allows.
pub fn round_cap_reached(content: &Content, state: &State) -> bool {
    let cap = content.variants().round_cap;
    cap > 0 && i64::from(state.round) >= cap
}

/// `highest_score`: the players with the highest score, a tie broken by the most coins
/// left when `verdict.tie_break = "coins"` (a tie in coins too is shared).
pub fn winners(content: &Content, state: &State, scores: &[i64]) -> Vec<usize> {
    let best = scores.iter().copied().max().unwrap_or(0);
    let tied: Vec<usize> = (0..scores.len()).filter(|&p| scores[p] == best).collect();
    if tied.len() < 2 || !content.variants().coins_tie_break {
        return tied;
    }
    let coins = |p: usize| state.players[p].coins;
    let most = tied.iter().map(|&p| coins(p)).max().unwrap_or(0);
    tied.into_iter().filter(|&p| coins(p) == most).collect()
}

/// `protected_colours`: whether `assassins.protect` keeps colour `colour` (an index)
/// from the assassins in front of every player.
pub fn protects(content: &Content, colour: usize) -> bool {
    colour < 64 && content.variants().protected >> colour & 1 == 1
}

/// `bidding_off`: the game is played without bids.
pub fn bidding_off(content: &Content) -> bool {
    content.variants().bidding_off
}

/// `seated_without_bids`: the markers take the turn track's first spots for free in
/// bid-track order, turned by one after the first round.
pub fn seated_without_bids(mut state: State) -> Result<State, Unported> {
    let mut order: Vec<i8> = state
        .bid_track
        .as_slice()
        .iter()
        .copied()
        .filter(|&m| m != NOBODY)
        .collect();
    if state.round > 1 && !order.is_empty() {
        order.rotate_left(1);
    }
    let spots = state.turn_track.as_slice().len();
    let bids = state.bid_track.as_slice().len();
    let mut turn_track = order;
    turn_track.resize(spots, NOBODY);
    let too_long = || Unported("a track longer than the kernel holds".to_owned());
    state.turn_track = Track::new(&turn_track).ok_or_else(too_long)?;
    state.bid_track = Track::new(&vec![NOBODY; bids]).ok_or_else(too_long)?;
    Ok(state)
}

/// The `start.cards` entries of deck `deck` as (kind, count).
fn start_cards<'a>(content: &'a Content, deck: &str) -> Vec<(&'a str, usize)> {
    let Some(tables) = content.typed_setting(START_CARDS).and_then(|s| s.tables()) else {
        return Vec::new();
    };
    tables
        .iter()
        .filter(|t| t.get("deck") == Some(&Scalar::Text(deck.to_owned())))
        .filter_map(|t| match (t.get("kind"), t.get("count")) {
            (Some(Scalar::Text(kind)), Some(&Scalar::Number(n))) => {
                Some((kind.as_str(), usize::try_from(n).unwrap_or(0)))
            }
            _ => None,
        })
        .collect()
}

/// `deal_start_cards`: each player's starting hand of deck `deck`, taken out of its
/// shuffled `pile` before the row is dealt: entry by entry, seat by seat, the first
/// `count` cards of the entry's kind from the top. A deck that keeps hands sorted sorts
/// them by card id, as Python does.
pub fn deal_start_cards(
    content: &Content,
    deck: &str,
    pile: &mut Vec<u8>,
    players: usize,
) -> Result<Vec<Vec<u8>>, Unported> {
    let doc = &content.doc;
    let mut hands = vec![Vec::new(); players];
    for (kind, count) in start_cards(content, deck) {
        for hand in &mut hands {
            for _ in 0..count {
                let at = pile
                    .iter()
                    .position(|&c| doc.cards[usize::from(c)].kind == kind)
                    .ok_or_else(|| Unported(format!("too few cards of kind {kind} to deal")))?;
                hand.push(pile.remove(at));
            }
        }
    }
    if doc
        .decks
        .iter()
        .any(|d| d.id == deck && d.order == "sorted")
    {
        for hand in &mut hands {
            hand.sort_by(|&a, &b| {
                doc.cards[usize::from(a)]
                    .id
                    .cmp(&doc.cards[usize::from(b)].id)
            });
        }
    }
    Ok(hands)
}
