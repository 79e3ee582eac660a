//! What a finished game leaves to the lab, read from the native state as plain data: each
//! seat's score lines (category, source, points), the winners, the end flags, the cards'
//! effect counts, the djinns held and the tiles' worth by kind (`lab/results.py`'s
//! `result_of`), so a study's result needs no Python state.
//!
//! Only the rules whose every score line this module writes are read here: the base
//! game's score sheet (`plugins/base/scoring.py`) and the djinns that change it at the end
//! (`plugins/base/djinns/endgame.py`: `BetterCount`, `AlAmin`, and the powers in the
//! effects language), the Thieves' unused thieves (`plugins/thieves/steal.py`), the Artisans'
//! artisans, precious items and tents (`plugins/artisans/`), and the Whims box's cities
//! and Great Lake (`plugins/whims/`), when no other plugin adds, changes or judges the
//! scores (no other deck, no solo mode, every scoring hook one of those plugins').
//! Anything else is `None`, and the caller reads the game through a Python state as
//! before. The lines must also add up to the kernel's own scores
//! (`Rules::scores`, proven the Python engine's by the differential harness), or the
//! reading is refused.

use crate::callbacks::HookCalls;
use crate::content::{CardSpec, Content};
use crate::effects::{self, Scope};
use crate::state::State;

pub use crate::score_line::Line;

/// The decks whose cards' score lines this module writes: the two every game has
/// first, then the boxes' (any other deck's cards may score).
const DECKS: [&str; 2] = ["resources", "djinns"];
const THIEVES: &str = "thieves";
const ITEMS: &str = "items";
const WHIMS: &str = "whims";
/// A deck whose plugin places its cards' lines itself (`[[deck]]` `scored`).
const BY_PLUGIN: &str = "by-plugin";
/// The hooks that write or change the scores, and the plugins whose answers this module
/// writes; a verdict hook (solo mode) is never read here.
const SCORING_HOOKS: [&str; 2] = ["naqala_score_lines", "naqala_adjust_score_lines"];
const VERDICT_HOOK: &str = "naqala_verdict";
/// The plugin whose score lines this module writes.
const BASE: &str = "base";
const ARTISANS: &str = "artisans";
/// The Whims box's plugin, as the providers table names it (its ruleset name is `djinns`).
const WHIMS_PLUGIN: &str = "whims";
/// The kinds of the Thieves' cards: each unused one scores its VP (`FabulousLamp`).
const THIEF_KINDS: [&str; 6] = ["djinns", "items", "meeples", "resources", "tile", "token"];
const PRECIOUS: &str = "precious";
const VIZIER: &str = "yellow";
const ELDER: &str = "white";
const ARTISAN: &str = "purple";
const MERCHANDISE: &str = "merchandise";
const TENT: &str = "tent";
const CITY: &str = "city";
const LAKE: &str = "great-lake";

/// Which boxes score in a content whose score lines this module writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scoring {
    pub artisans: bool,
    pub whims: bool,
}

/// Whether this module writes every score line of `content`'s games, and with which
/// boxes' lines; `None` when it does not. A plugin's `naqala_verdict`,
/// `naqala_score_lines` or `naqala_adjust_score_lines` the kernel calls back (`called`
/// says which) gives its own answer.
pub fn readable(content: &Content, called: impl Fn(&str) -> bool) -> Option<Scoring> {
    let verdict_called_back = called(crate::callbacks::VERDICT);
    let doc = &content.doc;
    // after the two every game has, any deck: the boxes' are read by their plugins' lines
    // below, a house rule's own by its cards' content powers (`card_lines`)
    let decks = doc.decks.len() >= DECKS.len()
        && doc.decks.iter().zip(DECKS).all(|(deck, id)| deck.id == id);
    let colours = [VIZIER, ELDER]
        .iter()
        .all(|id| doc.colours.iter().any(|c| c.id == *id));
    let mut scoring = Scoring::default();
    let mut scored_by_base = false;
    for spec in &doc.providers {
        let (kind, name) = spec.entry.split_once(':').unwrap_or(("", ""));
        if name == VERDICT_HOOK && !(kind == "hook" && verdict_called_back) {
            return None;
        }
        if !SCORING_HOOKS.contains(&name) {
            continue;
        }
        match (kind, spec.plugin.as_str()) {
            ("hook", BASE) => scored_by_base |= name == SCORING_HOOKS[0],
            ("hook", ARTISANS) => scoring.artisans = true,
            ("hook", WHIMS_PLUGIN) => scoring.whims = true,
            ("hook", _) if called(name) => {}
            _ => return None,
        }
    }
    let cards_known = doc.cards.iter().all(|card| match card.deck.as_str() {
        THIEVES => THIEF_KINDS.contains(&card.kind.as_str()),
        ITEMS => scoring.artisans,
        WHIMS => scoring.whims,
        _ => true,
    });
    let artisans_colour = !scoring.artisans || doc.colours.iter().any(|c| c.id == ARTISAN);
    (decks && colours && cards_known && artisans_colour && scored_by_base && !doc.is_solo())
        .then_some(scoring)
}

fn line(category: &str, source: &str, points: i64) -> Line {
    Line {
        category: category.to_owned(),
        source: source.to_owned(),
        points,
    }
}

/// What a seat's lines count, read once.
struct Seat<'a> {
    content: &'a Content,
    state: &'a State,
    player: usize,
    owned: Vec<usize>,
    viziers: i64,
    elders: i64,
}

impl Seat<'_> {
    fn setting(&self, key: &str) -> i64 {
        self.content.setting(key).unwrap_or(0)
    }

    /// Tokens of index `index` on the seat's tiles.
    fn on_owned(&self, index: usize) -> i64 {
        self.owned
            .iter()
            .map(|&t| i64::from(self.state.board.tokens(t)[index]))
            .sum()
    }

    fn token(&self, id: &str) -> Option<usize> {
        self.content.doc.tokens.iter().position(|t| t.id == id)
    }

    /// `artisans_of`: the artisans in front of `player`.
    fn artisans_of(&self, player: usize) -> i64 {
        let doc = &self.content.doc;
        doc.colours
            .iter()
            .position(|c| c.id == ARTISAN)
            .map_or(0, |c| i64::from(self.state.players[player].meeples[c]))
    }

    /// The cards of the deck `id` the seat holds, as specs.
    fn held(&self, id: &str) -> Vec<&CardSpec> {
        let doc = &self.content.doc;
        self.content.deck_index(id).map_or(Vec::new(), |deck| {
            self.state.players[self.player]
                .hands
                .hand(deck)
                .iter()
                .map(|&c| &doc.cards[usize::from(c)])
                .collect()
        })
    }
}

/// `player`'s lines before their adjustments (`Rules.score_lines`'s `frozen`, which
/// `naqala_adjust_score_lines` reads), when this module writes the lines of the rules
/// of `content` with the hooks `calls`.
pub fn frozen_lines(
    content: &Content,
    calls: Option<&dyn HookCalls>,
    state: &State,
    player: usize,
) -> Option<Vec<Line>> {
    let scoring = readable(content, |hook| calls.is_some_and(|c| c.answers(hook)))?;
    let seat = seat_of(content, state, player);
    Some(frozen(&seat, scoring, calls))
}

fn frozen(seat: &Seat, scoring: Scoring, calls: Option<&dyn HookCalls>) -> Vec<Line> {
    let mut lines = base_lines(seat);
    lines.extend(box_lines(seat, scoring));
    let called = calls.filter(|c| c.answers(crate::callbacks::SCORE_LINES));
    if let Some(calls) = called {
        lines.extend(calls.score_lines(seat.state, seat.player));
    }
    lines
}

/// `player`'s score lines, as `Rules.score_lines` gathers them: the plugins' lines
/// (`base_lines`, `box_lines`, then those a called-back hook gives), then their
/// adjustments (`card_lines`, the artisans' shared majority, the Great Lake's, then
/// those a called-back `naqala_adjust_score_lines` gives).
pub(crate) fn score_lines(
    content: &Content,
    scoring: Scoring,
    state: &State,
    player: usize,
    calls: Option<&dyn HookCalls>,
) -> Vec<Line> {
    let seat = seat_of(content, state, player);
    let mut lines = frozen(&seat, scoring, calls);
    let cards = card_lines(&seat);
    let mut adjusted = cards.clone();
    if scoring.artisans {
        adjusted.extend(tied_share(&seat));
    }
    if scoring.whims {
        let everything: Vec<&Line> = lines.iter().chain(&cards).collect();
        adjusted.extend(lake_lines(&seat, &everything));
    }
    let adjusting = calls.filter(|c| c.answers(crate::callbacks::ADJUST_SCORE_LINES));
    if let Some(calls) = adjusting {
        adjusted.extend(calls.adjusted_lines(state, player, &lines));
    }
    lines.extend(adjusted);
    lines
}

fn seat_of<'a>(content: &'a Content, state: &'a State, player: usize) -> Seat<'a> {
    let doc = &content.doc;
    let colour = |id: &str| doc.colours.iter().position(|c| c.id == id).unwrap_or(0);
    let me = &state.players[player];
    Seat {
        content,
        state,
        player,
        owned: state.owned_by(player).collect(),
        viziers: i64::from(me.meeples[colour(VIZIER)]),
        elders: i64::from(me.meeples[colour(ELDER)]),
    }
}

/// The base game's score sheet (`scoring.score_lines`).
fn base_lines(seat: &Seat) -> Vec<Line> {
    let (content, state) = (seat.content, seat.state);
    let doc = &content.doc;
    let me = &state.players[seat.player];
    let beaten = state
        .players
        .iter()
        .enumerate()
        .filter(|&(other, p)| {
            other != seat.player
                && i64::from(
                    p.meeples[doc.colours.iter().position(|c| c.id == VIZIER).unwrap_or(0)],
                ) < seat.viziers
        })
        .count() as i64;
    let djinns = seat.held(DECKS[1]).iter().map(|c| c.vp).sum();
    let mut lines = vec![
        line("coins", BASE, i64::from(me.coins)),
        line("viziers", BASE, seat.viziers * seat.setting("vizier_vp")),
        line(
            "vizier-majority",
            BASE,
            beaten * seat.setting("vizier_bonus"),
        ),
        line("elders", BASE, seat.elders * seat.setting("elder_vp")),
        line("djinns", BASE, djinns),
    ];
    for (index, token) in doc.tokens.iter().enumerate() {
        if token.vp != 0 {
            lines.push(line(
                &format!("{}s", token.id),
                BASE,
                seat.on_owned(index) * token.vp,
            ));
        }
    }
    let tiles: i64 = seat
        .owned
        .iter()
        .map(|&t| doc.tiles[usize::from(state.layout.tiles[t])].vp)
        .sum();
    lines.push(line("tiles", BASE, tiles));
    // the suits as scored (`plugins/base/merchandise.py`)
    let hand = state.players[seat.player].hands.hand(content.suits.deck);
    let merchandise = content.suits.score(hand, 0);
    lines.push(line(MERCHANDISE, BASE, merchandise));
    lines
}

/// The boxes' own lines: the Artisans' artisans, precious items and tents, the Whims
/// box's cities.
fn box_lines(seat: &Seat, scoring: Scoring) -> Vec<Line> {
    let (content, state) = (seat.content, seat.state);
    let doc = &content.doc;
    let mut lines = Vec::new();
    if scoring.artisans {
        let mine = seat.artisans_of(seat.player);
        let leads = mine > 0
            && (0..state.players.len())
                .filter(|&p| p != seat.player)
                .all(|p| mine > seat.artisans_of(p));
        let each = seat.setting(if leads {
            "artisan_majority_vp"
        } else {
            "artisan_vp"
        });
        lines.push(line(ARTISANS, ARTISANS, mine * each));
        for card in seat.held(ITEMS) {
            if card.kind == PRECIOUS {
                lines.push(line("items", &card.id, card.vp));
            }
        }
        if let Some(tent) = seat.token(TENT) {
            let per_tile = seat.setting("tent_red_tile_vp");
            let area = &state.layout.geometry.area;
            for (tile, block) in area.iter().enumerate().take(state.layout.size()) {
                if state.board.owner(tile) != seat.player as i8
                    || state.board.tokens(tile)[tent] == 0
                {
                    continue;
                }
                let red = block
                    .iter()
                    .filter(|&&t| {
                        doc.tiles[usize::from(state.layout.tiles[usize::from(t)])].value == "red"
                    })
                    .count() as i64;
                lines.push(line(TENT, ARTISANS, red * per_tile));
            }
        }
    }
    if scoring.whims {
        let cities = seat
            .owned
            .iter()
            .filter(|&&t| doc.tiles[usize::from(state.layout.tiles[t])].kind == CITY)
            .count() as i64;
        // the Whims box's plugin is named `djinns` in the rules (`cities.SOURCE`)
        lines.push(line(
            "cities",
            DECKS[1],
            seat.setting("city_vp") * cities * cities,
        ));
    }
    lines
}

/// The lines of the cards held that score after every plugin (`cards.score_lines`),
/// deck by deck: the unused thieves' worth, and the content powers of every other deck
/// scored `after` (the djinns', a house rule's own deck's).
fn card_lines(seat: &Seat) -> Vec<Line> {
    let (content, state) = (seat.content, seat.state);
    let mut lines = Vec::new();
    for deck in content.doc.decks.iter().filter(|d| d.scored != BY_PLUGIN) {
        for card in seat.held(&deck.id) {
            if deck.id == THIEVES {
                lines.push(line(THIEVES, THIEVES, card.vp));
            } else {
                lines.extend(power_lines(seat, card));
            }
        }
    }
    // the content's `scoring` triggers, after the cards (`effects.scoring_lines`)
    let scoring = crate::effects::Moment::Scoring;
    for program in &content.effects.triggers[scoring.index()] {
        let scope = Scope::of(seat.player, &program.params);
        for (category, points) in effects::scores(program, state, &scope) {
            lines.push(line(category, &program.id, points));
        }
    }
    lines
}

/// The lines of `card`'s content power at final scoring, named after the card.
fn power_lines(seat: &Seat, card: &CardSpec) -> Vec<Line> {
    let content = seat.content;
    let Some(index) = content.doc.cards.iter().position(|c| c.id == card.id) else {
        return Vec::new();
    };
    let scoring = Some(crate::effects::Moment::Scoring);
    let Some(power) = content.effects.power_at(index as u8, scoring) else {
        return Vec::new();
    };
    let scope = Scope {
        card: Some(index as u8),
        mark: content.effects.mark_of(Some(index as u8)),
        ..Scope::of(seat.player, &card.params)
    };
    effects::scores(&power.program, seat.state, &scope)
        .map(|(category, points)| line(category, &card.id, points))
        .collect()
}

/// `tied_share_lines`: with `artisan_majority_ties = "shared"`, a seat tied for the most
/// artisans scores the majority's difference too.
fn tied_share(seat: &Seat) -> Option<Line> {
    let shared = seat.content.text_setting("artisan_majority_ties", "most") == Ok("shared");
    let mine = seat.artisans_of(seat.player);
    let others: Vec<i64> = (0..seat.state.players.len())
        .filter(|&p| p != seat.player)
        .map(|p| seat.artisans_of(p))
        .collect();
    if !shared || mine == 0 || !others.contains(&mine) || others.iter().any(|&n| n > mine) {
        return None;
    }
    let more = seat.setting("artisan_majority_vp") - seat.setting("artisan_vp");
    Some(line(ARTISANS, "shared-artisan-majority", mine * more))
}

/// `lake_score_lines`: each palm tree and palace on the seat's tiles next to a Great Lake
/// scores its worth once more, its worth being what its category's lines (`everything`:
/// the plugins' lines and the cards') give each such token the seat has.
fn lake_lines(seat: &Seat, everything: &[&Line]) -> Vec<Line> {
    let (content, state) = (seat.content, seat.state);
    let doc = &content.doc;
    let geometry = &state.layout.geometry;
    let around = if seat.setting("lake_diagonals") != 0 {
        &geometry.area
    } else {
        &geometry.orthogonal
    };
    let kind = |t: usize| doc.tiles[usize::from(state.layout.tiles[t])].kind.as_str();
    let water: Vec<usize> = (0..state.layout.size())
        .filter(|&t| kind(t) == LAKE)
        .collect();
    let mut near: Vec<usize> = water
        .iter()
        .flat_map(|&lake| around[lake].iter().map(|&t| usize::from(t)))
        .filter(|&t| kind(t) != LAKE && state.board.owner(t) == seat.player as i8)
        .collect();
    near.sort_unstable();
    near.dedup();
    let mut lines = Vec::new();
    for (index, token) in doc.tokens.iter().enumerate() {
        let count: i64 = near
            .iter()
            .map(|&t| i64::from(state.board.tokens(t)[index]))
            .sum();
        if token.vp == 0 || count == 0 {
            continue;
        }
        let category = format!("{}s", token.id);
        let total = seat.on_owned(index);
        let points: i64 = everything
            .iter()
            .filter(|l| l.category == category)
            .map(|l| l.points)
            .sum();
        let worth = points.div_euclid(total);
        lines.push(line(&category, LAKE, count * worth));
    }
    lines
}
