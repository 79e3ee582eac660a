//! What a state read from state JSON must mean before the rules may play it.
//!
//! `statejson.rs` checks that a document fits the kernel's fields; this checks that the
//! position is one a game could hold, as `core/validate.py` does for the Python engine:
//! every component counted once (meeples, cards, tokens, camels, turn markers), players
//! and owners that exist, and a pending decision that fits the turn in progress. The
//! rules rely on these (an index, a marker's owner, a drop with meeples in hand), so a
//! state that breaks one is refused here with its JSON path instead of reaching them.
//! The rules' `expect`s on a turn (`"in a turn"`, `"a drop has meeples in hand"`, `"a
//! step was entered by a stage"`, `"a theft is running"`) are the invariants held here.

use std::collections::BTreeMap;

use crate::content::Content;
use crate::rules::{Phase, Rules};
use crate::state::{Board, Player, State, Target, Turn, NOBODY, NON_PLAYER, NO_CARD};

pub use crate::limits::MAX_COINS;
/// The most a counter of `extras` may hold (`core/validate.py`'s `MAX_COUNTER`).
pub const MAX_COUNTER: i64 = 1_000_000;

const ASIDE_MEEPLE: &str = "aside.meeple.";
const ASIDE_CARD: &str = "aside.card.";

/// `Ok` when `state` means a position of a game of `content`; else the first problem,
/// as `$.path: what is wrong`.
pub fn check_meaning(content: &Content, state: &State) -> Result<(), String> {
    let players = check_players(content, state)?;
    check_bounds(content, state)?;
    check_owners(content, state, players)?;
    check_markers(content, state, players)?;
    check_meeples(content, state)?;
    check_tokens(content, state)?;
    check_cards(content, state)?;
    check_solo(content, state)?;
    check_decision(content, state, players)
}

/// The number of players, one the content has a player count for.
fn check_players(content: &Content, state: &State) -> Result<usize, String> {
    let players = state.players.len();
    let allowed: Vec<String> = content
        .doc
        .player_counts
        .iter()
        .map(|c| c.players.to_string())
        .collect();
    if players == 0
        || !content
            .doc
            .player_counts
            .iter()
            .any(|c| c.players as usize == players)
    {
        let allowed = if allowed.is_empty() {
            "none".to_owned()
        } else {
            allowed.join(", ")
        };
        return Err(format!(
            "$.players: {players} players; these rules allow {allowed}"
        ));
    }
    Ok(players)
}

fn check_counter(path: String, value: i64) -> Result<(), String> {
    if (0..=MAX_COUNTER).contains(&value) {
        Ok(())
    } else {
        Err(format!(
            "{path}: {value} is not between 0 and {MAX_COUNTER}"
        ))
    }
}

/// Coins, counters and the round within their bounds.
fn check_bounds(content: &Content, state: &State) -> Result<(), String> {
    if state.round < 1 {
        return Err(format!(
            "$.round: rounds are counted from 1, not {}",
            state.round
        ));
    }
    let names = &content.names;
    for (i, player) in state.players.iter().enumerate() {
        let coins = i64::from(player.coins);
        if !(0..=MAX_COINS).contains(&coins) {
            return Err(format!(
                "$.players[{i}].coins: {coins} is not between 0 and {MAX_COINS}"
            ));
        }
        for &(key, value) in player.extras.iter() {
            check_counter(format!("$.players[{i}].extras.{}", names.name(key)), value)?;
        }
    }
    for &(key, value) in state.extras.iter() {
        check_counter(format!("$.extras.{}", names.name(key)), value)?;
    }
    Ok(())
}

/// The tiles' owners are players, nobody, or (where the rules have one) the non-player
/// opponent; the camels in supply and on tiles make each player's share.
fn check_owners(content: &Content, state: &State, players: usize) -> Result<(), String> {
    let size = state.layout.size();
    let mut non_player = 0i64;
    for tile in 0..size {
        let owner = state.board.owner(tile);
        if owner == NON_PLAYER {
            non_player += 1;
        } else if owner != NOBODY && !(0..players as i64).contains(&i64::from(owner)) {
            return Err(format!("$.board.tiles[{tile}].owner: no player {owner}"));
        }
    }
    let most = content.setting("non_player_camels").unwrap_or(0);
    if non_player > most {
        return Err(format!(
            "$.board.tiles: {non_player} tiles held by a non-player opponent; these rules give \
             one {most} camels (settings.non_player_camels)"
        ));
    }
    let stand_ins: Vec<usize> = (0..content.tokens())
        .filter(|&k| content.doc.tokens[k].replaces_camel)
        .collect();
    let share = content
        .doc
        .player_counts
        .iter()
        .find(|c| c.players as usize == players)
        .map_or(0, |c| i64::from(c.camels));
    for (seat, player) in state.players.iter().enumerate() {
        let placed = (0..size)
            .filter(|&t| {
                i64::from(state.board.owner(t)) == seat as i64
                    && !stand_ins.iter().any(|&k| state.board.tokens(t)[k] != 0)
            })
            .count() as i64;
        let camels = i64::from(player.camels);
        if camels + placed != share {
            return Err(format!(
                "$.players[{seat}].camels: {camels} in supply and {placed} on tiles; a player \
                 of a {players}-player game has {share}"
            ));
        }
    }
    Ok(())
}

/// Each player owns their markers; each marker is on exactly one spot of the bid and
/// turn-order tracks, and the bid track has a spot for every marker.
fn check_markers(content: &Content, state: &State, players: usize) -> Result<(), String> {
    let markers = state.markers.as_slice();
    for (i, &owner) in markers.iter().enumerate() {
        if !(0..players as i64).contains(&i64::from(owner)) {
            return Err(format!("$.markers[{i}]: no player {owner}"));
        }
    }
    if let Some(count) = content
        .doc
        .player_counts
        .iter()
        .find(|c| c.players as usize == players)
    {
        for seat in 0..players {
            let have = markers.iter().filter(|&&m| m as usize == seat).count();
            if have != count.markers as usize {
                return Err(format!(
                    "$.markers: player {seat} has {have} markers, not {}",
                    count.markers
                ));
            }
        }
    }
    let bids = state.bid_track.as_slice();
    if bids.len() != markers.len() {
        return Err(format!(
            "$.bid_track: {} spots for {} markers",
            bids.len(),
            markers.len()
        ));
    }
    let mut seen: Vec<Option<String>> = vec![None; markers.len()];
    for (track, spots) in [
        ("bid_track", bids),
        ("turn_track", state.turn_track.as_slice()),
    ] {
        for (i, &marker) in spots.iter().enumerate() {
            if marker == NOBODY {
                continue;
            }
            let path = format!("$.{track}[{i}]");
            let Some(slot) = usize::try_from(marker).ok().and_then(|m| seen.get_mut(m)) else {
                return Err(format!("{path}: no marker {marker}"));
            };
            if let Some(other) = slot {
                return Err(format!("{path}: marker {marker} is also on {other}"));
            }
            *slot = Some(path);
        }
    }
    if let Some(missing) = seen.iter().position(Option::is_none) {
        return Err(format!("$.bid_track: marker {missing} is on no track"));
    }
    Ok(())
}

/// The counter `prefix<id>` of the state's extras, 0 if absent.
fn aside(content: &Content, state: &State, prefix: &str, id: &str) -> i64 {
    content
        .names
        .sym(&format!("{prefix}{id}"))
        .and_then(|key| state.extras.iter().find(|(k, _)| *k == key))
        .map_or(0, |&(_, v)| v)
}

/// Each colour has its content count between the board, the bag, the players, the hand
/// of the move and beside the board; impassable tiles hold none. (A tile with
/// `holds_meeples = false` is only dealt none at set-up: a move may drop on it.)
fn check_meeples(content: &Content, state: &State) -> Result<(), String> {
    let layout = &state.layout;
    let colours = content.colours();
    for tile in 0..layout.size() {
        let spec = &content.doc.tiles[usize::from(layout.tiles[tile])];
        let blocked = layout.blocked & (1 << tile) != 0;
        if blocked && state.board.meeples(tile).iter().any(|&n| n != 0) {
            return Err(format!(
                "$.board.tiles[{tile}].meeples: {:?} holds no meeples",
                spec.id
            ));
        }
    }
    let hand = state.turn.as_ref().and_then(|t| t.hand);
    for (c, colour) in content.doc.colours.iter().enumerate().take(colours) {
        let on_board: i64 = (0..layout.size())
            .map(|t| i64::from(state.board.meeples(t)[c]))
            .sum();
        let kept: i64 = state
            .players
            .iter()
            .map(|p: &Player| i64::from(p.meeples[c]))
            .sum();
        let moving = hand.map_or(0, |h| i64::from(h[c]));
        let beside = aside(content, state, ASIDE_MEEPLE, &colour.id);
        let total = on_board + i64::from(state.bag[c]) + kept + moving + beside;
        if total != i64::from(colour.count) {
            return Err(format!(
                "$.bag: {total} {} meeples in the game (board {on_board}, bag {}, players \
                 {kept}, hand {moving}, aside {beside}); the rules have {}",
                colour.name, state.bag[c], colour.count
            ));
        }
    }
    Ok(())
}

/// Each token kind has its content count between the bank and the board.
fn check_tokens(content: &Content, state: &State) -> Result<(), String> {
    let board: &Board = &state.board;
    for (k, token) in content.doc.tokens.iter().enumerate() {
        let placed: i64 = (0..state.layout.size())
            .map(|t| i64::from(board.tokens(t)[k]))
            .sum();
        let bank = i64::from(state.pool[k]);
        if placed + bank != i64::from(token.count) {
            return Err(format!(
                "$.pool.{}: {bank} in the bank and {placed} on the board; the rules have {}",
                token.id, token.count
            ));
        }
    }
    Ok(())
}

/// Every card of the cards in play is somewhere exactly as many times as the content
/// has it (decks, hands, the cards revealed in the turn, beside the board), and the
/// cards left out are nowhere.
fn check_cards(content: &Content, state: &State) -> Result<(), String> {
    let mut found: BTreeMap<u8, i64> = BTreeMap::new();
    let mut count = |cards: &[u8]| {
        for &card in cards.iter().filter(|&&c| c != NO_CARD) {
            *found.entry(card).or_insert(0) += 1;
        }
    };
    for deck in state.decks.iter() {
        count(deck.draw());
        count(deck.row());
        count(deck.discard());
    }
    for player in state.players.iter() {
        for deck in 0..content.decks() {
            count(player.hands.hand(deck));
        }
    }
    if let Some(turn) = &state.turn {
        count(&turn.revealed);
    }
    for (i, card) in content.doc.cards.iter().enumerate() {
        let want = if content.doc.in_play.contains(&card.id) {
            i64::from(card.count)
        } else {
            0
        };
        let Ok(index) = u8::try_from(i) else { break };
        let have =
            found.get(&index).copied().unwrap_or(0) + aside(content, state, ASIDE_CARD, &card.id);
        if have != want {
            return Err(format!(
                "$.decks.{}: {have} copies of {:?} in the game; the rules have {want}",
                card.deck, card.id
            ));
        }
    }
    Ok(())
}

/// Solo mode's dice show faces of its dice, and its targets are tiles of the board
/// (counted from 1, 0 for none).
fn check_solo(content: &Content, state: &State) -> Result<(), String> {
    if !content.doc.is_solo() {
        return Ok(());
    }
    let sides = content.setting("die_sides").unwrap_or(0);
    let tiles = state.layout.size() as i64;
    let limits = [
        ("sultan.white", sides),
        ("sultan.black", sides),
        ("sultan.target.1", tiles),
        ("sultan.target.2", tiles),
        ("sultan.after", 1),
    ];
    for (key, most) in limits {
        let value = aside(content, state, key, "");
        if !(0..=most).contains(&value) {
            return Err(format!(
                "$.extras.{key}: {value} is not between 0 and {most}"
            ));
        }
    }
    Ok(())
}

/// The pending decision names a player, and a turn is in progress exactly when its stage
/// belongs to one, at the point of the turn the stage is played at.
fn check_decision(content: &Content, state: &State, players: usize) -> Result<(), String> {
    let rules = Rules::new(content);
    let needs = rules.decision_needs(state.decision.stage);
    let player = state.decision.player;
    let stage = content.names.name(state.decision.stage);
    let Some(phase) = needs else {
        return Ok(()); // a stage the kernel has not ported: the rules refuse to play it
    };
    if phase == Phase::Over {
        if player != NOBODY {
            return Err("$.decision.player: nobody decides once the game is over".to_owned());
        }
        if state.turn.is_some() {
            return Err("$.turn: no turn is in progress once the game is over".to_owned());
        }
        return Ok(());
    }
    if !(0..players as i64).contains(&i64::from(player)) {
        return Err(format!("$.decision.player: no player {player}"));
    }
    let spots = rules.turn_track_spots(players);
    if state.turn_track.as_slice().len() != spots {
        return Err(format!(
            "$.turn_track: {} spots; the turn order of {players} players has {spots}",
            state.turn_track.as_slice().len()
        ));
    }
    if phase == Phase::NoTurn {
        check_bidder(state, player)?;
    }
    let turn = match (&state.turn, phase) {
        (None, Phase::NoTurn) => return Ok(()),
        (Some(_), Phase::NoTurn) => {
            return Err(format!("$.turn: no turn is in progress during {stage:?}"))
        }
        (None, _) => {
            return Err(format!(
                "$.turn: the decision {stage:?} belongs to a turn, but no turn is in progress"
            ))
        }
        (Some(turn), _) => turn,
    };
    let markers = state.markers.as_slice();
    let Some(&owner) = markers.get(usize::from(turn.marker)) else {
        return Err(format!("$.turn.marker: no marker {}", turn.marker));
    };
    if rules.owner_decides(state.decision.stage) && owner != player {
        return Err(format!(
            "$.decision.player: the turn in progress is player {owner}'s, not player {player}'s"
        ));
    }
    if let Target::Player(p) = turn.target {
        if usize::from(p) >= players {
            return Err(format!("$.turn.target: no player p{}", u16::from(p) + 1));
        }
    }
    if rules.is_step(state.decision.stage) && turn.callers.is_empty() {
        return Err(format!(
            "$.turn.callers: the step {stage:?} was entered by no stage to return to"
        ));
    }
    if let Some(problem) = rules.theft_problem(state) {
        return Err(problem);
    }
    let point = turn_point(content, state, turn)?;
    let fits = match phase {
        Phase::BeforeMove => point == Point::Before,
        Phase::Moving => point == Point::Moving,
        Phase::AfterMove => point == Point::After,
        Phase::NotMoving => point != Point::Moving,
        Phase::Any => true,
        Phase::Over | Phase::NoTurn => false,
    };
    if let Some(colour) = rules.tribe_colour(state.decision.stage) {
        if i64::from(turn.colour) != colour as i64 {
            return Err(format!(
                "$.turn.colour: the move collected colour {}, not the colour of {stage:?}",
                turn.colour
            ));
        }
    }
    if !fits {
        return Err(format!(
            "$.turn: the decision {stage:?} is never taken {}",
            point.words()
        ));
    }
    Ok(())
}

/// A bid is the first marker's of the bid track, and a spot of the turn order is free
/// for it.
fn check_bidder(state: &State, player: i8) -> Result<(), String> {
    let markers = state.markers.as_slice();
    let first = state.bid_track.as_slice().iter().find(|&&m| m != NOBODY);
    let Some(owner) = first.and_then(|&m| markers.get(usize::try_from(m).ok()?)) else {
        return Err("$.bid_track: a bid is pending, but no marker is waiting to bid".into());
    };
    if *owner != player {
        return Err(format!(
            "$.decision.player: the marker bidding is player {owner}'s, not player {player}'s"
        ));
    }
    if !state.turn_track.as_slice().contains(&NOBODY) {
        return Err("$.turn_track: a bid is pending, but every spot is taken".into());
    }
    Ok(())
}

/// Where a turn stands: before the meeples are picked up, while they are dropped, or
/// after the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Point {
    Before,
    Moving,
    After,
}

impl Point {
    fn words(self) -> &'static str {
        match self {
            Point::Before => "before the move",
            Point::Moving => "during the move",
            Point::After => "after the move",
        }
    }
}

/// The point the turn's fields describe; an error when they describe none (a start with
/// no hand, a path that is no walk, a colour before the move ended...).
fn turn_point(content: &Content, state: &State, turn: &Turn) -> Result<Point, String> {
    let held: u32 = turn
        .hand
        .map_or(0, |h| h.iter().map(|&n| u32::from(n)).sum());
    let point = match (turn.hand, turn.start) {
        (None, NOBODY) => Point::Before,
        (Some(_), NOBODY) => {
            return Err("$.turn.start: meeples in hand but no tile they were picked from".into())
        }
        (None, _) => return Err("$.turn.hand: a move started but no hand".into()),
        (Some(_), _) if held > 0 => Point::Moving,
        (Some(_), _) => Point::After,
    };
    if point == Point::Before && !turn.path.is_empty() {
        return Err("$.turn.path: a path before any meeple was picked up".into());
    }
    if point == Point::After && turn.path.is_empty() {
        return Err("$.turn.path: a move ended without a step".into());
    }
    if (point == Point::After) != (turn.colour != NOBODY) {
        return Err(format!(
            "$.turn.colour: the colour of the last meeple is known {}",
            Point::After.words()
        ));
    }
    if turn.colour != NOBODY && !(0..content.colours() as i64).contains(&i64::from(turn.colour)) {
        return Err(format!("$.turn.colour: no colour {}", turn.colour));
    }
    if point != Point::Before {
        check_start(state, turn)?;
    }
    Ok(point)
}

/// The move starts from a tile a meeple may stand on (the path's tiles are on the
/// board, as read; a card may carry a meeple past a neighbour, so they are no walk).
fn check_start(state: &State, turn: &Turn) -> Result<(), String> {
    let geometry = &state.layout.geometry;
    usize::try_from(turn.start)
        .ok()
        .filter(|&t| t < state.layout.size() && !geometry.is_impassable(t))
        .map(drop)
        .ok_or_else(|| format!("$.turn.start: no tile a move starts from ({})", turn.start))
}
