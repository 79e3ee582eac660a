//! Events (`plugins/base/cards.py`'s `on_event`, `core/events.py`): what happened, and
//! the cards and content triggers that react to it.

use super::Rules;

use crate::state::State;

/// What happened, for the djinns that react (`core/events.py`'s `Event`, the fields the
/// ported reactions read).
#[derive(Clone, Copy, Debug)]
pub(super) enum Event {
    /// `meeple-dropped`: the mover, the tile dropped on
    MeepleDropped { player: usize, tile: usize },
    /// `kill`: the assassins' owner, the colour killed, the tile (None: in front of
    /// `victim`)
    Kill {
        player: usize,
        colour: usize,
        tile: Option<usize>,
        victim: Option<usize>,
    },
    /// `kill-prevented`: a protection of `victim` hid a target from `player`'s assassins
    KillPrevented { player: usize, victim: usize },
    /// `builders-paid`: who, where, and how many coins
    BuildersPaid {
        player: usize,
        tile: usize,
        count: i64,
    },
    /// `<token>-placed`: who placed a token of which kind (by index) where
    TokenPlaced {
        player: usize,
        tile: usize,
        token: usize,
    },
    /// `djinn-taken`: who took which djinn
    DjinnTaken { player: usize, djinn: u8 },
    /// `tile-taken`: who put a camel (or a piece) on which tile
    TileTaken { player: usize, tile: usize },
    /// `turn-start`: whose turn starts, before the move
    TurnStart { player: usize },
    /// `before-tribe-action`: whose move is done, on which tile, before its tribe acts
    BeforeTribeAction { player: usize, tile: usize },
    /// `after-tribe-action`: whose tribe acted, on which tile, before the tile's action
    AfterTribeAction { player: usize, tile: usize },
    /// `turn-end`: whose turn ended, once the sale is done
    TurnEnd { player: usize },
    /// `sell`: who sold a suit, for how many coins
    Sold { player: usize, count: i64 },
    /// `round-end`: the round is over, fired for each player in seat order
    RoundEnd { player: usize },
}

impl Rules<'_> {
    /// `Rules.fire`: every card held that reacts to events reacts, players in seat order,
    /// each player's hands deck by deck in hand order, as the state is at its turn.
    pub(super) fn fire(&self, mut state: State, event: Event) -> State {
        let facts = self.facts(event);
        let heard = self.content.effects.heard[facts.moment.index()];
        // no hand-written card reacts to these: only content might
        let cards_deaf = match event {
            Event::TileTaken { .. }
            | Event::TurnStart { .. }
            | Event::BeforeTribeAction { .. }
            | Event::AfterTribeAction { .. }
            | Event::TurnEnd { .. }
            | Event::Sold { .. }
            | Event::RoundEnd { .. } => true,
            Event::TokenPlaced { .. } => facts.moment != crate::effects::Moment::PalacePlaced,
            _ => false,
        };
        if cards_deaf && !heard {
            return state;
        }
        state = self.cards_react(state, event);
        if heard {
            state = self.triggers_fire(state, facts);
        }
        state
    }

    /// The cards held that react, players in seat order (`cards.on_event`).
    pub(super) fn cards_react(&self, mut state: State, event: Event) -> State {
        for owner in 0..state.players.len() {
            let hands = &state.players[owner].hands;
            if !(0..self.content.decks()).any(|deck| {
                hands
                    .hand(deck)
                    .iter()
                    .any(|&c| self.reacts[usize::from(c)])
            }) {
                continue;
            }
            let reacting: Vec<u8> = (0..self.content.decks())
                .flat_map(|deck| hands.hand(deck).to_vec())
                .filter(|&c| self.reacts[usize::from(c)])
                .collect();
            for card in reacting {
                if let Some(changed) = self.react(&state, owner, card, event) {
                    state = changed;
                }
            }
        }
        state
    }
}
