//! Setting up a new base game (`plugins/base/setup.py`): the board, meeples, decks,
//! coins, camels and turn markers, drawn from the seed's generator in the Python order.
//!
//! Boards with terrain (the Whims box's Great Lake, `terrain.rs`) are laid again while a
//! tile is cut off, as in Python; the Artisans lay their own board with a chasm and
//! mountains, again while a tile is cut off (`rules/artisans.rs`).

use std::sync::Arc;

use crate::content::{Content, MAX_COLOURS, MAX_PLAYERS, MAX_TOKENS};
use crate::rng::Rng;
use crate::rules::{Rules, Step, Unported};
use crate::state::{
    Board, Counts, Decision, Deck, Hands, Layout, Player, State, TokenCounts, Track, MAX_TRACK,
    NOBODY,
};

/// `board_shape`: content table `board_<tiles>`, else the squarest board that looks like
/// a Five Tribes board (`derived_shape`).
fn board_shape(content: &Content) -> Result<(usize, usize), Unported> {
    let count = content.doc.tiles.len();
    if let Some(shape) = content.table(&format!("board_{count}")) {
        if shape.len() == 2 && shape[0] * shape[1] == count as i64 {
            return Ok((shape[0] as usize, shape[1] as usize));
        }
        return Err(Unported(format!("a board_{count} table that is no shape")));
    }
    let mut rows = count.isqrt();
    while rows >= 3 {
        if count.is_multiple_of(rows) && count / rows - rows <= 2 {
            return Ok((rows, count / rows));
        }
        rows -= 1;
    }
    Err(Unported(format!("a board of {count} tiles")))
}

/// `deck_row`: how many cards of the deck lie face up at the start.
fn deck_row(content: &Content, deck: &str) -> usize {
    let key = match deck {
        "resources" => "resource_row".to_owned(),
        "djinns" => "djinn_row".to_owned(),
        other => format!("{other}_row"),
    };
    content.setting(&key).unwrap_or(0).max(0) as usize
}

/// Why the rules refuse a game of `players` players, in their own words (those of
/// `plugins/base/setup.py`), or `None` when their content allows that count: a refusal
/// of the rules, not something the kernel has yet to port.
pub fn refused_players(content: &Content, players: usize) -> Option<String> {
    let counts = &content.doc.player_counts;
    if counts.iter().any(|p| p.players as usize == players) {
        return None;
    }
    let mut allowed: Vec<usize> = counts.iter().map(|p| p.players as usize).collect();
    allowed.sort_unstable();
    let allowed: Vec<String> = allowed.iter().map(usize::to_string).collect();
    let (noun, alone) = if players == 1 {
        ("player", " (one seat plays the solo mode: -x solo)")
    } else {
        ("players", "")
    };
    Some(format!(
        "a game of {players} {noun} is not supported with these rules (allowed: {}){alone}",
        allowed.join(", ")
    ))
}

/// `new_game`, then the flow's start (`Rules.new_game`): the first bid.
pub fn new_game(rules: &Rules, players: usize, seed: u64) -> Step {
    let content = rules.content;
    let doc = &content.doc;
    let Some(count) = doc
        .player_counts
        .iter()
        .find(|p| p.players as usize == players)
    else {
        return Err(Unported(format!("a game of {players} players")));
    };
    if players > MAX_PLAYERS {
        return Err(Unported(format!("a game of {players} players")));
    }
    if let Some(refused) = rules.refused_edition() {
        return Err(refused);
    }
    let mut rng = Rng::new(seed);
    let layout = if rules.artisans.is_some() {
        // the Artisans lay the board (`naqala_board_layout`) with terrain
        let (rows, cols) = board_shape(content)?;
        rules.artisans_layout(rows, cols, &mut rng)?
    } else {
        lay_out(content, &mut rng)?
    };

    let colours = content.colours();
    let mut bag: Counts = [0; MAX_COLOURS];
    for (c, spec) in doc.colours.iter().enumerate() {
        bag[c] = content.count(spec.count);
    }
    let per_tile = content.setting("meeples_per_tile").unwrap_or(0);
    let mut board = Board::new(layout.size(), colours, content.tokens());
    for index in 0..layout.size() {
        if layout.blocked >> index & 1 == 1
            || !doc.tiles[usize::from(layout.tiles[index])].holds_meeples
        {
            continue;
        }
        for _ in 0..per_tile {
            let weights: Vec<u64> = bag[..colours].iter().map(|&n| u64::from(n)).collect();
            let colour = rng.choice_weighted(&weights);
            bag[colour] -= 1;
            board.meeples_mut(index)[colour] += 1;
        }
    }

    let mut decks = Vec::with_capacity(content.decks());
    let mut hands: Vec<Vec<Vec<u8>>> = vec![Vec::new(); players]; // by player, then deck
    for deck in &doc.decks {
        let mut pile: Vec<u8> = Vec::new();
        for id in &doc.in_play {
            let card = content
                .card_index(id)
                .expect("a card in play is in the table");
            let spec = &doc.cards[usize::from(card)];
            if spec.deck == deck.id {
                pile.extend(std::iter::repeat_n(card, spec.count as usize));
            }
        }
        rng.shuffle(&mut pile);
        // `start.cards`: dealt from the top of the shuffled pile before the row
        let dealt = crate::variants::deal_start_cards(content, &deck.id, &mut pile, players)?;
        for (hand, cards) in hands.iter_mut().zip(dealt) {
            hand.push(cards);
        }
        let face_up = deck_row(content, &deck.id).min(pile.len());
        decks.push(Deck::new(&pile[face_up..], &pile[..face_up], &[]));
    }

    let too_long = || Unported("a track longer than the kernel holds".to_owned());
    let markers: Vec<i8> = (0..players)
        .flat_map(|p| std::iter::repeat_n(p as i8, count.markers as usize))
        .collect();
    if markers.len() > MAX_TRACK {
        return Err(too_long());
    }
    // at most MAX_TRACK markers: their indices are small
    let mut bid_track: Vec<i8> = (0..markers.len()).map(|m| m as i8).collect();
    rng.shuffle(&mut bid_track);
    let spots = rules.turn_order_costs(players).len();
    let coins = content.setting("starting_coins").unwrap_or(0);
    let mut pool: TokenCounts = [0; MAX_TOKENS];
    for (k, token) in doc.tokens.iter().enumerate() {
        pool[k] = content.count(token.count);
    }
    let player = Player {
        coins: coins as i32,
        camels: content.count(count.camels),
        meeples: [0; MAX_COLOURS],
        hands: Hands::new(&[]),
        extras: Box::new([]),
    };
    let names = &content.names;
    let state = State {
        layout: Arc::new(layout),
        board,
        players: hands
            .iter()
            .map(|by_deck| Player {
                hands: Hands::new(by_deck),
                ..player.clone()
            })
            .collect(),
        bag,
        pool,
        decks: decks.into_boxed_slice(),
        markers: Track::new(&markers).ok_or_else(too_long)?,
        bid_track: Track::new(&bid_track).ok_or_else(too_long)?,
        turn_track: Track::new(&vec![NOBODY; spots]).ok_or_else(too_long)?,
        decision: Decision {
            stage: names.known("setup"),
            player: NOBODY,
        },
        rng,
        round: 1,
        turn: None,
        flags: Box::new([]),
        extras: Box::new([]),
    };
    // the rows lying on tiles filled (the whims on the cities), then
    // `naqala_adjust_new_game`: solo mode's camels, the Artisans' tents; then a plugin's
    // own, called back
    let state = rules.give_tents(rules.adjust_new_game(rules.fill_lying(state)));
    rules.start(rules.called_back_new_game(state))
}

/// How often a layout with a cut-off tile is laid again before giving up
/// (`LAYOUT_ATTEMPTS`).
const LAYOUT_ATTEMPTS: usize = 1000;

/// `lay_out`: every tile shuffled into the board (`random_layout`), with the terrain the
/// plugins declare (`terrain::impassable`), laid again while some tile is shut in.
fn lay_out(content: &Content, rng: &mut Rng) -> Result<Layout, Unported> {
    let (rows, cols) = board_shape(content)?;
    for _ in 0..LAYOUT_ATTEMPTS {
        let mut tiles: Vec<u8> = (0..content.doc.tiles.len() as u8).collect();
        rng.shuffle(&mut tiles);
        let blocked = crate::terrain::impassable(content, &tiles);
        let layout = Layout::new(
            content,
            rows as u8,
            cols as u8,
            tiles.into_boxed_slice(),
            blocked,
            Box::new([]),
        );
        if crate::terrain::is_connected(&layout.geometry) {
            return Ok(layout);
        }
    }
    Err(Unported("a board without a cut-off tile".to_owned()))
}
