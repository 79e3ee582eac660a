//! The Artisans of Naqala (`plugins/artisans/`), ported stage by stage: the artisans'
//! tribe action and the item kept (`actions.py`, `items.py`), the workshop and the
//! specialized market, the tents (`tents.py`), the magic items (`items.py`,
//! `board_items.py`), the Artisans' scoring and djinns (`scoring.py`) and the board
//! (`layout.py`). Each function names the Python it follows; every number is read from
//! the merged content (`content/artisans.toml`, `content/artisans-items.toml`).
//!
//! A kept older version of the plugin (artisans 0.1.0, with other items) is never played
//! as today's: the kernel answers `Unported` naming it.

use std::sync::Arc;

use super::scoring::Sheet;
use super::stages::{Automatic, Market, Stage};
use super::{turn_here, wait_at, Phase, Rules, Step, Unported};
use crate::actions::{Action, ItemTarget, Way};
use crate::content::{Content, ARTISAN};
use crate::extras::{get_extra, set_extra};
use crate::names::Sym;
use crate::rng::Rng;
use crate::state::{saturating_count, Count, Decision, Deck, Layout, State};

/// The stages only the Artisans register (`naqala_stages`, `naqala_tribe_actions`):
/// the box is recognised by them, not by its plugin's name.
const OWN_STAGES: [&str; 2] = ["keep-item", "tribe:purple"];
const TENT: &str = "tent";
/// The Artisans' deck of magic items: the box is in play when the content has it.
pub(crate) const ITEMS: &str = "items";
/// The source and category of the Artisans' own lines (`scoring.SOURCE`).
const ARTISANS: &str = "artisans";
const PRECIOUS: &str = "precious";
/// `layout.NEW_KINDS`: the tiles laid in the board's inner area
const NEW_KINDS: &[&str] = &["workshop", "specialized-market", "chasm"];
const CHASM: &str = "chasm";
const WORKSHOP: &str = "workshop";
/// `layout.LAYOUT_ATTEMPTS` of plugins/base/setup.py
const LAYOUT_ATTEMPTS: usize = 1000;

/// What a card of the items deck does (`items.item_powers`), by its kind: the items whose
/// power is code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Item {
    Precious,
    EnchantingFlute,
    FlyingCarpet,
}

impl Item {
    fn of(kind: &str) -> Option<Item> {
        Some(match kind {
            PRECIOUS => Item::Precious,
            "enchanting-flute" => Item::EnchantingFlute,
            "flying-carpet" => Item::FlyingCarpet,
            _ => return None,
        })
    }
}

/// What the Artisans add to one content, found once (`Rules::artisans`).
#[derive(Clone, Debug)]
pub(crate) struct Artisans {
    /// the colour index of the artisans
    purple: usize,
    /// the token index of the tents
    tent: usize,
    /// the deck index of the items
    items: usize,
    piece_tent: Sym,
    flute_tile: Sym,
    flute_left: Sym,
    gather: Sym,
    keep_item: Sym,
    artisan_vp: i64,
    artisan_majority_vp: i64,
    /// `artisan_majority_ties = "shared"`: every player tied for the most artisans
    /// scores the majority value (the default `"most"`: only strictly the most does)
    shared_ties: bool,
    workshop_artisans: i64,
    workshop_fakirs: i64,
    tent_red_tile_vp: i64,
    /// by card index: the item power of the card, None for other decks' cards
    item: Vec<Option<Item>>,
}

/// `shares_ties`: whether `artisan_majority_ties` reads a tie for the most as shared.
fn shares_ties(content: &Content) -> bool {
    content.text_setting(MAJORITY_TIES, "most") == Ok("shared")
}

/// The setting naming the reading of a tie for the most artisans (`scoring.py`).
const MAJORITY_TIES: &str = "artisan_majority_ties";

impl Artisans {
    /// The Artisans' parts of `content`, or None when the plugin is not in play.
    pub(crate) fn new(content: &Content) -> Option<Artisans> {
        let doc = &content.doc;
        if !registered(doc) {
            return None;
        }
        let names = &content.names;
        let setting = |key: &str| content.setting(key).unwrap_or(0);
        let items = content.deck_index(ITEMS)?;
        Some(Artisans {
            purple: doc.colour_index(ARTISAN)?,
            tent: doc.tokens.iter().position(|t| t.id == TENT)?,
            items,
            piece_tent: names.known("piece.tent"),
            flute_tile: names.known("flute.tile"),
            flute_left: names.known("flute.left"),
            gather: names.sym("gather")?,
            keep_item: names.sym("keep-item")?,
            artisan_vp: setting("artisan_vp"),
            artisan_majority_vp: setting("artisan_majority_vp"),
            shared_ties: shares_ties(content),
            workshop_artisans: setting("workshop_artisans"),
            workshop_fakirs: setting("workshop_fakirs"),
            tent_red_tile_vp: setting("tent_red_tile_vp"),
            item: doc
                .cards
                .iter()
                .map(|c| {
                    if c.deck == ITEMS {
                        Item::of(&c.kind)
                    } else {
                        None
                    }
                })
                .collect(),
        })
    }

    /// The artisans in front of `player`.
    fn artisans_of(&self, state: &State, player: usize) -> i64 {
        i64::from(state.players[player].meeples[self.purple])
    }

    /// Whether the card is a magic item, used in its owner's turn.
    pub(crate) fn activated(&self, card: u8) -> bool {
        self.item(card).is_some_and(|i| i != Item::Precious)
    }

    fn item(&self, card: u8) -> Option<Item> {
        self.item.get(usize::from(card)).copied().flatten()
    }
}

/// Whether the Artisans' stages are in the rules (one of them is enough: the box
/// without the others is refused, `refused_edition`).
fn registered(doc: &crate::content::ContentDoc) -> bool {
    doc.stages.iter().any(|s| OWN_STAGES.contains(&s.as_str()))
}

/// The stages the Artisans add (`naqala_tribe_actions`, `naqala_tile_actions`,
/// `naqala_stages`), by stage name; the rules ask only when the box is in play.
pub(super) fn stage_named(content: &Content, name: &str) -> Option<Arc<dyn Stage>> {
    Some(match name {
        "tribe:purple" => Arc::new(Automatic(|rules, state, stage| {
            rules.artisans_tribe(state, stage)
        })),
        "tile:workshop" => Arc::new(Workshop),
        "tile:specialized-market" => Arc::new(Market::whole_row(
            content.setting("specialized_market_cost")?,
        )),
        "keep-item" => Arc::new(KeepItem),
        "gather" => Arc::new(Gather),
        _ => return None,
    })
}

/// The card kinds of the items deck the kernel plays by hand (the items of 0.2.0 but the
/// Burning Scimitar, the Horn of Plenty, the Fabulous Lamp, the Rebirth Ring and the
/// Tempest Talisman, whose powers are content).
pub(super) fn item_ported(kind: &str) -> bool {
    Item::of(kind).is_some()
}

impl Rules<'_> {
    fn art(&self) -> &Artisans {
        self.artisans.as_ref().expect("the Artisans are in play")
    }

    // -- the artisans and the items (actions.py, items.py) ----------------------------

    /// `Artisans.enter`: keep the artisans; reveal as many items as artisans collected
    /// and keep one (the `keep-item` step).
    fn artisans_tribe(&self, mut state: State, stage: Sym) -> Step {
        let player = state.decision.player as usize;
        let turn = state.turn.as_ref().expect("a tribe action is in a turn");
        let (colour, taken) = (turn.colour as usize, turn.taken);
        state.players[player].meeples[colour] += taken;
        let (mut state, drawn) = self.draw_cards(state, self.art().items, usize::from(taken));
        if drawn.is_empty() {
            return self.proceed(state, stage);
        }
        let turn = state.turn.as_mut().expect("in a turn");
        turn.revealed = drawn.into_boxed_slice();
        let mut callers = turn.callers.to_vec();
        callers.push(stage);
        turn.callers = callers.into_boxed_slice();
        Ok(wait_at(state, self.art().keep_item))
    }

    /// `KeepItem.apply`: the item kept joins the hand; the others go face up to the
    /// discard pile; the artisans' action has finished.
    fn keep_item(&self, mut state: State, item: u8) -> Step {
        let player = state.decision.player as usize;
        let deck_index = self.art().items;
        let turn = state.turn.as_mut().expect("in a turn");
        let mut others = turn.revealed.to_vec();
        let at = others
            .iter()
            .position(|&c| c == item)
            .expect("an item drawn");
        others.remove(at);
        turn.revealed = Box::new([]);
        let deck = &state.decks[deck_index];
        let mut discard = deck.discard().to_vec();
        discard.extend_from_slice(&others);
        state.decks[deck_index] = Deck::new(deck.draw(), deck.row(), &discard);
        let state = self.give_items(state, player, &[item]);
        self.return_to_caller(state)
    }

    /// `items_left`: an item can still be drawn (from the pile or the discards).
    fn items_left(&self, state: &State) -> bool {
        let deck = &state.decks[self.art().items];
        !deck.draw().is_empty() || !deck.discard().is_empty()
    }

    /// `give_items` (`give_cards`): items into the hand, as the deck orders its hands.
    fn give_items(&self, state: State, player: usize, items: &[u8]) -> State {
        self.give_cards(state, player, self.art().items, items)
    }

    /// `Workshop._payments`: `P…` with enough artisans kept, `F…` with enough Fakirs.
    fn workshop_payments(&self, state: &State) -> Vec<Action> {
        let art = self.art();
        let player = state.decision.player as usize;
        let mut ways = Vec::new();
        let artisans = i64::from(state.players[player].meeples[art.purple]);
        if artisans >= art.workshop_artisans {
            ways.push(Action::Workshop(
                Way::Artisans,
                saturating_count(art.workshop_artisans),
            ));
        }
        if self.fakirs_held(state, player) as i64 >= art.workshop_fakirs {
            ways.push(Action::Workshop(
                Way::Fakirs,
                saturating_count(art.workshop_fakirs),
            ));
        }
        ways
    }

    /// `Workshop.apply`: pay the artisans (to the bag) or the Fakirs, take the top item.
    fn workshop(&self, mut state: State, way: Way, n: Count) -> Step {
        let stage = state.decision.stage;
        let player = state.decision.player as usize;
        match way {
            Way::Artisans => {
                let purple = self.art().purple;
                state.players[player].meeples[purple] -= n;
                state.bag[purple] += n;
            }
            Way::Fakirs => state = self.discard_fakirs(state, player, usize::from(n)),
        }
        let (state, drawn) = self.draw_cards(state, self.art().items, 1);
        let state = self.give_items(state, player, &drawn);
        self.proceed(state, stage)
    }

    // -- tents (tents.py) -------------------------------------------------------------

    /// `tent_options`: in the player's own turn, with the tent still to place, each
    /// tile taken this turn that they own and that holds no tent.
    pub(super) fn tent_options(&self, state: &State, player: usize) -> Vec<Action> {
        let Some(art) = self.artisans.as_ref() else {
            return Vec::new();
        };
        let turn = state.turn.as_ref().expect("in a turn");
        if get_extra(&state.players[player].extras, art.piece_tent) == 0 {
            return Vec::new();
        }
        turn.claimed
            .iter()
            .filter(|&&t| {
                let t = usize::from(t);
                state.board.owner(t) == player as i8 && state.board.tokens(t)[art.tent] == 0
            })
            .map(|&t| Action::Tent(t))
            .collect()
    }

    /// `pitch_tent`: the tent on the tile, the camel back in the player's supply.
    pub(super) fn pitch_tent(&self, mut state: State, tile: usize) -> State {
        let art = self.art();
        let player = state.decision.player as usize;
        let p = &mut state.players[player];
        p.camels += 1;
        p.extras = set_extra(&p.extras, art.piece_tent, 0);
        state.board.tokens_mut(tile)[art.tent] += 1;
        state.pool[art.tent] -= 1;
        state
    }

    /// `give_tents`: every player has one tent to place.
    pub(crate) fn give_tents(&self, mut state: State) -> State {
        if let Some(art) = self.artisans.as_ref() {
            for p in state.players.iter_mut() {
                p.extras = set_extra(&p.extras, art.piece_tent, 1);
            }
        }
        state
    }

    // -- the magic items (items.py, board_items.py) -----------------------------------

    /// `Activated.options` of a magic item (the owner's own turn is checked by the
    /// caller): once a turn for the deck, where the item is usable, each target.
    pub(super) fn item_options(&self, state: &State, card: u8) -> Vec<Action> {
        let art = self.art();
        let Some(item) = art.item(card) else {
            return Vec::new();
        };
        let turn = state.turn.as_ref().expect("in a turn");
        if self.used_this_turn(turn, card) {
            return Vec::new();
        }
        let stage = state.decision.stage;
        match item {
            Item::FlyingCarpet if stage != self.known.drop => return Vec::new(),
            Item::EnchantingFlute if self.meeples_settled(stage) => return Vec::new(),
            _ => {}
        }
        let spec = &self.content.doc.cards[usize::from(card)];
        // the items cost nothing; a cost the kernel does not know is not offered
        if spec.cost.is_empty() {
            self.item_targets(state, card, item)
                .into_iter()
                .map(|t| Action::Item(card, t))
                .collect()
        } else {
            Vec::new()
        }
    }

    fn item_targets(&self, state: &State, card: u8, item: Item) -> Vec<ItemTarget> {
        let spec = &self.content.doc.cards[usize::from(card)];
        let param = |key: &str| spec.params.get(key).copied().unwrap_or(0);
        let geo = &state.layout.geometry;
        match item {
            Item::Precious => Vec::new(),
            // `EnchantingFlute.targets`: passable tiles with a neighbour holding meeples
            Item::EnchantingFlute => (0..geo.size)
                .filter(|&t| !geo.is_impassable(t) && !self.flute_sources(state, t).is_empty())
                .map(|t| ItemTarget::Tile(t as u8))
                .collect(),
            Item::FlyingCarpet => self.carpet_targets(state, param("jump")),
        }
    }

    /// `_sources`: the tiles sharing an edge with `tile` that hold meeples.
    fn flute_sources(&self, state: &State, tile: usize) -> Vec<usize> {
        state.layout.geometry.orthogonal[tile]
            .iter()
            .map(|&t| usize::from(t))
            .filter(|&t| state.board.meeples(t).iter().any(|&n| n != 0))
            .collect()
    }

    /// `FlyingCarpet.targets`: `jump` tiles away in a straight line, on a passable
    /// tile, each colour in hand whose drop there keeps the move legal.
    fn carpet_targets(&self, state: &State, jump: i64) -> Vec<ItemTarget> {
        let turn = state.turn.as_ref().expect("in a turn");
        let Some(hand) = turn.hand else {
            return Vec::new();
        };
        let geo = &state.layout.geometry;
        let here = turn_here(turn);
        let (row, col) = ((here / geo.cols) as i64, (here % geo.cols) as i64);
        let mut found = Vec::new();
        for (dr, dc) in [(-jump, 0), (jump, 0), (0, -jump), (0, jump)] {
            let (r, c) = (row + dr, col + dc);
            if !(0 <= r && r < geo.rows as i64 && 0 <= c && c < geo.cols as i64) {
                continue;
            }
            let tile = (r as usize) * geo.cols + c as usize;
            if geo.is_impassable(tile) {
                continue;
            }
            for (colour, &n) in hand[..self.content.colours()].iter().enumerate() {
                if n != 0 && self.carpet_lands(state, tile, colour) {
                    found.push(ItemTarget::TileColour(tile as u8, colour as u8));
                }
            }
        }
        found
    }

    /// `FlyingCarpet._lands`: the last meeple lands on its colour, or the meeples left
    /// can still end the move.
    fn carpet_lands(&self, state: &State, tile: usize, colour: usize) -> bool {
        let turn = state.turn.as_ref().expect("in a turn");
        let hand = turn.hand.expect("in a move");
        let left: usize = hand.iter().map(|&n| usize::from(n)).sum();
        if left == 1 {
            return state.board.meeples(tile)[colour] != 0;
        }
        let mut dropped = state.clone();
        dropped.board.meeples_mut(tile)[colour] += 1;
        let turn = dropped.turn.as_mut().expect("in a turn");
        turn.path = super::append(&turn.path, tile as u8);
        turn.hand.as_mut().expect("in a move")[colour] -= 1;
        !self.drop_options(&dropped).is_empty()
    }

    /// `Activated.apply` for a magic item: mark the deck used, discard the item, count
    /// the effect, then act.
    pub(super) fn use_item(&self, mut state: State, card: u8, target: ItemTarget) -> Step {
        let art = self.art();
        let player = state.decision.player as usize;
        self.mark_used(&mut state, card);
        if self.content.doc.decks[art.items].discard {
            let deck_index = art.items;
            let hands = &state.players[player].hands;
            let mut hand = hands.hand(deck_index).to_vec();
            let at = hand
                .iter()
                .position(|&c| c == card)
                .expect("the item is held");
            hand.remove(at);
            state.players[player].hands = hands.with_hand(deck_index, &hand);
            let deck = &state.decks[deck_index];
            let mut discard = deck.discard().to_vec();
            discard.push(card);
            state.decks[deck_index] = Deck::new(deck.draw(), deck.row(), &discard);
        }
        state = self.count_effect(state, card);
        let spec = &self.content.doc.cards[usize::from(card)];
        let param = |key: &str| spec.params.get(key).copied().unwrap_or(0);
        let item = art.item(card).expect("an item");
        Ok(match (item, target) {
            // `EnchantingFlute.act`: the tile chosen, the meeples come at `gather`
            (Item::EnchantingFlute, ItemTarget::Tile(tile)) => {
                state.extras = set_extra(&state.extras, art.flute_tile, i64::from(tile));
                state.extras = set_extra(&state.extras, art.flute_left, param("meeples"));
                let stage = state.decision.stage;
                let turn = state.turn.as_mut().expect("in a turn");
                turn.resume = stage;
                state.decision = Decision {
                    stage: art.gather,
                    player: player as i8,
                };
                state
            }
            // `FlyingCarpet.act`: the drop stage's own drop, on the tile flown to
            (Item::FlyingCarpet, ItemTarget::TileColour(tile, colour)) => {
                return self.drop(state, usize::from(tile), usize::from(colour));
            }
            _ => return Err(Unported(format!("{ITEMS}:{}", spec.kind))),
        })
    }

    /// `Gather.legal`: `done`, or a meeple of a neighbouring tile whose move keeps a
    /// move.
    fn gather_options(&self, state: &State) -> Vec<Action> {
        let art = self.art();
        let to = get_extra(&state.extras, art.flute_tile).max(0) as usize;
        let mut found = vec![Action::Done];
        for source in self.flute_sources(state, to) {
            for (colour, &n) in state.board.meeples(source).iter().enumerate() {
                if n == 0 {
                    continue;
                }
                let resume = state.turn.as_ref().expect("in a turn").resume;
                let keeps = resume != self.known.pick || {
                    let mut moved = state.clone();
                    moved.board.meeples_mut(source)[colour] -= 1;
                    moved.board.meeples_mut(to)[colour] += 1;
                    moved.decision.stage = resume;
                    self.leaves_a_pick(&moved)
                };
                if keeps {
                    found.push(Action::Gather(source as u8, colour as u8));
                }
            }
        }
        found
    }

    /// `Gather.apply`: one meeple onto the Flute's tile; after the last one (or `done`)
    /// play goes back to the decision the Flute was played at.
    fn gather(&self, mut state: State, moved: Option<(usize, usize)>) -> State {
        let art = self.art();
        if let Some((source, colour)) = moved {
            let to = get_extra(&state.extras, art.flute_tile).max(0) as usize;
            state.board.meeples_mut(source)[colour] -= 1;
            state.board.meeples_mut(to)[colour] += 1;
            let left = get_extra(&state.extras, art.flute_left) - 1;
            state.extras = set_extra(&state.extras, art.flute_left, left);
            if left > 0 && self.gather_options(&state).len() > 1 {
                return state;
            }
        }
        state.extras = state
            .extras
            .iter()
            .copied()
            .filter(|&(k, _)| k != art.flute_tile && k != art.flute_left)
            .collect::<Vec<_>>()
            .into_boxed_slice();
        let player = state.decision.player as usize;
        self.resume_interrupted(&mut state, player);
        state
    }

    // -- scoring (scoring.py, items.py, tents.py) -------------------------------------

    /// The Artisans' score lines (`naqala_score_lines`): the artisans (the majority
    /// value each for the one player with strictly the most), each precious item (and an
    /// item's content power) and each tent on the player's tiles (Geb and Ptah are
    /// content).
    pub(super) fn artisan_lines(&self, state: &State, player: usize, sheet: &mut impl Sheet) {
        let Some(art) = self.artisans.as_ref() else {
            return;
        };
        let doc = &self.content.doc;
        let mine = art.artisans_of(state, player);
        let leads = mine > 0
            && (0..state.players.len())
                .filter(|&p| p != player)
                .all(|p| mine > art.artisans_of(state, p));
        let each = if leads {
            art.artisan_majority_vp
        } else {
            art.artisan_vp
        };
        sheet.line(ARTISANS, ARTISANS, mine * each);
        for &card in state.players[player].hands.hand(art.items) {
            if art.item(card) == Some(Item::Precious) {
                let spec = &doc.cards[usize::from(card)];
                sheet.line(ITEMS, &spec.id, spec.vp);
            } else {
                self.power_lines(state, player, card, sheet);
            }
        }
        let geo = &state.layout.geometry;
        for tile in state.owned_by(player) {
            if state.board.tokens(tile)[art.tent] == 0 {
                continue;
            }
            let red = geo.area[tile]
                .iter()
                .filter(|&&t| {
                    doc.tiles[usize::from(state.layout.tiles[usize::from(t)])].value == "red"
                })
                .count() as i64;
            sheet.line(TENT, ARTISANS, red * art.tent_red_tile_vp);
        }
    }

    /// `tied_share_lines`: with `artisan_majority_ties = "shared"`, a player tied for
    /// the most artisans scores the majority's difference too.
    pub(super) fn tied_share_line(&self, state: &State, player: usize, sheet: &mut impl Sheet) {
        let Some(art) = self.artisans.as_ref().filter(|a| a.shared_ties) else {
            return;
        };
        let mine = art.artisans_of(state, player);
        let others = (0..state.players.len()).filter(|&p| p != player);
        let tied = others.clone().any(|p| art.artisans_of(state, p) == mine);
        if mine == 0 || !tied || others.clone().any(|p| art.artisans_of(state, p) > mine) {
            return;
        }
        let more = art.artisan_majority_vp - art.artisan_vp;
        sheet.line(ARTISANS, "shared-artisan-majority", mine * more);
    }

    // -- the board (layout.py) --------------------------------------------------------

    /// The plugins played at an older version, which the kernel refuses (and the
    /// Artisans without the parts the kernel plays them with: never the base rules alone).
    pub(crate) fn refused_edition(&self) -> Option<Unported> {
        let editions = &self.content.doc.editions;
        if editions.is_empty() {
            let named = registered(&self.content.doc);
            return (named && self.artisans.is_none()).then(|| {
                Unported("the Artisans without their colour, tent, items deck or stages".into())
            });
        }
        Some(Unported(format!(
            "{} (a kept older version: it stays on the Python engine)",
            editions.join(", ")
        )))
    }

    /// `lay_out` with `artisans_layout` and the terrain (`with_terrain`): laid again
    /// while a tile is cut off.
    pub(crate) fn artisans_layout(
        &self,
        rows: usize,
        cols: usize,
        rng: &mut Rng,
    ) -> Result<Layout, Unported> {
        let content = self.content;
        for _ in 0..LAYOUT_ATTEMPTS {
            let tiles = lay_tiles(content, rows, cols, rng)?;
            let (chasms, walls) = terrain(content, rows, cols, &tiles);
            // with the Whims box the Great Lake is impassable too (`with_terrain` asks
            // every plugin's `naqala_impassable_tiles`)
            let blocked = chasms | crate::terrain::impassable(content, &tiles);
            let layout = Layout::new(
                content,
                rows as u8,
                cols as u8,
                tiles.into_boxed_slice(),
                blocked,
                walls.into_boxed_slice(),
            );
            if connected(&layout) {
                return Ok(layout);
            }
        }
        Err(Unported(
            "a board without a layout that leaves no tile cut off".to_owned(),
        ))
    }
}

/// `artisans_layout`: the new tiles and randomly drawn other tiles shuffled into the
/// inner area, the other tiles shuffled around them.
fn lay_tiles(
    content: &Content,
    rows: usize,
    cols: usize,
    rng: &mut Rng,
) -> Result<Vec<u8>, Unported> {
    let doc = &content.doc;
    let inner: Vec<usize> = (1..rows.saturating_sub(1))
        .flat_map(|r| (1..cols.saturating_sub(1)).map(move |c| r * cols + c))
        .collect();
    let new: Vec<u8> = (0..doc.tiles.len() as u8)
        .filter(|&t| NEW_KINDS.contains(&doc.tiles[usize::from(t)].kind.as_str()))
        .collect();
    let mut others: Vec<u8> = (0..doc.tiles.len() as u8)
        .filter(|&t| !NEW_KINDS.contains(&doc.tiles[usize::from(t)].kind.as_str()))
        .collect();
    if inner.len() < new.len() || inner.len() - new.len() > others.len() {
        return Err(Unported(format!(
            "a {rows}x{cols} board whose inner area cannot hold the Artisans tiles"
        )));
    }
    let drawn = inner.len() - new.len();
    rng.shuffle(&mut others);
    let mut centre: Vec<u8> = others[..drawn].to_vec();
    centre.extend_from_slice(&new);
    rng.shuffle(&mut centre);
    let mut tiles = vec![0u8; rows * cols];
    for (&position, &tile) in inner.iter().zip(&centre) {
        tiles[position] = tile;
    }
    let rim = (0..rows * cols).filter(|i| !inner.contains(i));
    for (position, &tile) in rim.zip(&others[drawn..]) {
        tiles[position] = tile;
    }
    Ok(tiles)
}

/// `chasms` and `mountains`: the chasm impassable; two walls per workshop on its
/// darkened edges (the first north and west, the others south and east), none on the rim.
fn terrain(content: &Content, rows: usize, cols: usize, tiles: &[u8]) -> (u64, Vec<(u8, u8)>) {
    let mut blocked = 0u64;
    let mut walls = Vec::new();
    for (index, &tile) in tiles.iter().enumerate() {
        let id = &content.doc.tiles[usize::from(tile)].id;
        let (kind, number) = id.rsplit_once('-').unwrap_or(("", id));
        if kind == CHASM {
            blocked |= 1 << index;
        }
        if kind != WORKSHOP {
            continue;
        }
        let dark: [(i64, i64); 2] = if number == "1" {
            [(-1, 0), (0, -1)]
        } else {
            [(1, 0), (0, 1)]
        };
        let (row, col) = ((index / cols) as i64, (index % cols) as i64);
        for (dr, dc) in dark {
            let (r, c) = (row + dr, col + dc);
            if 0 <= r && r < rows as i64 && 0 <= c && c < cols as i64 {
                let other = (r as usize * cols + c as usize) as u8;
                let index = index as u8;
                walls.push((index.min(other), index.max(other)));
            }
        }
    }
    walls.sort_unstable();
    walls.dedup();
    (blocked, walls)
}

/// `Geometry.is_connected`: every passable tile reaches every other.
fn connected(layout: &Layout) -> bool {
    let geo = &layout.geometry;
    let passable: Vec<usize> = (0..geo.size).filter(|&t| !geo.is_impassable(t)).collect();
    let Some(&first) = passable.first() else {
        return true;
    };
    let mut seen = 1u64 << first;
    let mut todo = vec![first];
    while let Some(here) = todo.pop() {
        for &next in &geo.neighbours[here] {
            let bit = 1u64 << next;
            if seen & bit == 0 {
                seen |= bit;
                todo.push(usize::from(next));
            }
        }
    }
    seen.count_ones() as usize == passable.len()
}

/// The workshop: an item for resources or elders, as many times as the artisans allow.
#[derive(Debug)]
struct Workshop;

impl Stage for Workshop {
    fn needs(&self) -> Phase {
        Phase::AfterMove
    }

    fn options(
        &self,
        rules: &Rules<'_>,
        state: &State,
        out: &mut Vec<Action>,
    ) -> Result<(), Unported> {
        out.push(Action::Skip);
        out.extend(rules.workshop_payments(state));
        Ok(())
    }

    fn apply(&self, rules: &Rules<'_>, state: State, action: &Action) -> Step {
        match *action {
            Action::Skip => {
                let stage = state.decision.stage;
                rules.proceed(state, stage)
            }
            Action::Workshop(way, n) => rules.workshop(state, way, n),
            _ => Err(rules.not_taken_here(&state, action)),
        }
    }

    fn enter(&self, rules: &Rules<'_>, state: State, stage: Sym) -> Step {
        if !rules.items_left(&state) || rules.workshop_payments(&state).is_empty() {
            return rules.proceed(state, stage);
        }
        Ok(wait_at(state, stage))
    }
}

/// The item kept of those the artisans revealed, a step of their tribe action.
#[derive(Debug)]
struct KeepItem;

impl Stage for KeepItem {
    fn needs(&self) -> Phase {
        Phase::AfterMove
    }

    fn is_step(&self) -> bool {
        true
    }

    fn options(&self, _: &Rules<'_>, state: &State, out: &mut Vec<Action>) -> Result<(), Unported> {
        let turn = state.turn.as_ref().expect("in a turn");
        out.extend(turn.revealed.iter().map(|&c| Action::Keep(c)));
        Ok(())
    }

    fn apply(&self, rules: &Rules<'_>, state: State, action: &Action) -> Step {
        match *action {
            Action::Keep(item) => rules.keep_item(state, item),
            _ => Err(rules.not_taken_here(&state, action)),
        }
    }

    fn enter(&self, rules: &Rules<'_>, _: State, stage: Sym) -> Step {
        Err(rules.not_here(stage))
    }
}

/// The Enchanting Flute's gathering: meeples moved one by one, until done.
#[derive(Debug)]
struct Gather;

impl Stage for Gather {
    fn needs(&self) -> Phase {
        Phase::NotMoving // played at the pick too, never during the move
    }

    fn options(
        &self,
        rules: &Rules<'_>,
        state: &State,
        out: &mut Vec<Action>,
    ) -> Result<(), Unported> {
        out.extend(rules.gather_options(state));
        Ok(())
    }

    fn apply(&self, rules: &Rules<'_>, state: State, action: &Action) -> Step {
        match *action {
            Action::Gather(tile, colour) => {
                Ok(rules.gather(state, Some((usize::from(tile), usize::from(colour)))))
            }
            Action::Done => Ok(rules.gather(state, None)),
            _ => Err(rules.not_taken_here(&state, action)),
        }
    }

    fn enter(&self, rules: &Rules<'_>, _: State, stage: Sym) -> Step {
        Err(rules.not_here(stage))
    }
}
