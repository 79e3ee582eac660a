//! Payments: a djinn taken at a sacred place (`Payment`), and a card used (`Pay`):
//! nothing, or elders (`E`) and Fakirs (`F`). Its own module: the content's cost table
//! reads `Pay`, and actions print both.

use crate::limits::Count;

/// How a djinn is paid for at a sacred place: two elders, or an elder and a Fakir.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Payment {
    ElderElder,
    ElderFakir,
}

impl Payment {
    pub fn code(self) -> &'static str {
        match self {
            Payment::ElderElder => "EE",
            Payment::ElderFakir => "EF",
        }
    }
}

/// How a card's cost is paid (`COST_CODES` in plugins/base/costs.py, the base game's answer
/// to the hook `naqala_cost_codes`): nothing, or elders (`E`) and Fakirs (`F`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pay {
    Free,
    E,
    F,
    EE,
    EF,
}

impl Pay {
    pub fn code(self) -> &'static str {
        match self {
            Pay::Free => "",
            Pay::E => "E",
            Pay::F => "F",
            Pay::EE => "EE",
            Pay::EF => "EF",
        }
    }

    /// (elders, Fakirs) the payment takes.
    pub fn counts(self) -> (Count, usize) {
        match self {
            Pay::Free => (0, 0),
            Pay::E => (1, 0),
            Pay::F => (0, 1),
            Pay::EE => (2, 0),
            Pay::EF => (1, 1),
        }
    }

    /// The payment a content's cost table writes (`CostCode.payments`: `""`, `E`, `EF`…);
    /// None for one the kernel does not pay.
    pub fn of(payment: &str) -> Option<Pay> {
        [Pay::Free, Pay::E, Pay::F, Pay::EE, Pay::EF]
            .into_iter()
            .find(|p| p.code() == payment)
    }
}
