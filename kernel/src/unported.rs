//! What the kernel refuses to play, named: a leaf module, so that every module may
//! answer it without reading the rules.

/// A rule the kernel does not implement yet, by the name of the stage or power.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unported(pub String);
