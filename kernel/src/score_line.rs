//! One line of a seat's score sheet: a leaf module, so that the hooks called back
//! (`crate::callbacks`) and the sheets written here (`crate::results`) both name it.

/// One score line of a seat's sheet (`ScoreLine` without its words).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Line {
    pub category: String,
    pub source: String,
    pub points: i64,
}
