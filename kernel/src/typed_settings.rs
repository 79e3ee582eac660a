//! The settings that are no number, as the content document holds them
//! (`typed_settings`, written by `naqala.kernel.content.content_data`).
//!
//! Python checked each against the type and choices the plugin reading it declares
//! (`core/meaning.py`), so the kernel reads them by shape: a boolean, a text, an array of
//! texts (`assassins.protect`) or an array of small tables (`start.cards`). A name the
//! kernel reads and finds of another shape is refused when the rules are built.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::content::Content;

/// One scalar of a small table inside an array setting.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Scalar {
    Flag(bool),
    Number(i64),
    Text(String),
}

/// A setting's value that is no number. An empty array reads as `Texts`; `tables` of
/// it is empty too.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum TypedSetting {
    Flag(bool),
    Text(String),
    Texts(Vec<String>),
    Tables(Vec<BTreeMap<String, Scalar>>),
}

impl TypedSetting {
    pub fn text(&self) -> Option<&str> {
        match self {
            TypedSetting::Text(text) => Some(text),
            _ => None,
        }
    }

    pub fn texts(&self) -> Option<&[String]> {
        match self {
            TypedSetting::Texts(texts) => Some(texts),
            _ => None,
        }
    }

    /// The small tables of an array setting (none for an empty array).
    pub fn tables(&self) -> Option<&[BTreeMap<String, Scalar>]> {
        match self {
            TypedSetting::Tables(tables) => Some(tables),
            TypedSetting::Texts(texts) if texts.is_empty() => Some(&[]),
            _ => None,
        }
    }
}

/// A text setting, `default` when the content has none; an error names a value of
/// another shape.
pub fn text_setting<'a>(
    content: &'a Content,
    key: &str,
    default: &'a str,
) -> Result<&'a str, String> {
    match content.typed_setting(key) {
        None => Ok(default),
        Some(value) => value
            .text()
            .ok_or_else(|| format!("kernel content: settings.{key}: expected a string")),
    }
}

/// An array-of-texts setting, empty when the content has none.
pub fn texts_setting<'a>(content: &'a Content, key: &str) -> Result<&'a [String], String> {
    match content.typed_setting(key) {
        None => Ok(&[]),
        Some(value) => value
            .texts()
            .ok_or_else(|| format!("kernel content: settings.{key}: expected an array of strings")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_shape_from_json() {
        let read = |json: &str| serde_json::from_str::<TypedSetting>(json).unwrap();
        assert_eq!(read("\"coins\"").text(), Some("coins"));
        assert_eq!(read("true"), TypedSetting::Flag(true));
        assert_eq!(
            read("[\"vizier\"]").texts(),
            Some(&["vizier".to_owned()][..])
        );
        assert_eq!(read("[]").tables().map(<[_]>::len), Some(0));
        let cards = read("[{\"deck\": \"resources\", \"kind\": \"fakir\", \"count\": 2}]");
        let first = &cards.tables().unwrap()[0];
        assert_eq!(first["count"], Scalar::Number(2));
        assert_eq!(first["kind"], Scalar::Text("fakir".to_owned()));
        assert!(serde_json::from_str::<TypedSetting>("[[1]]").is_err());
    }
}
