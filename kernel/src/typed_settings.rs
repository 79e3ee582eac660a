//! The settings that are no number, as the content document holds them
//! (`typed_settings`, written by `naqala.native.content.content_data`).
//!
//! Python checked each against the type and choices the plugin reading it declares
//! (`core/meaning.py`), so the kernel reads them by shape: a boolean, a text, an array of
//! texts (`assassins.protect`) or an array of small tables (`start.cards`). A name the
//! kernel reads and finds of another shape is refused when the rules are built.

use std::collections::BTreeMap;

use serde::Deserialize;

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

/// Every setting of the document's `typed_settings` by its shape; a value of none of
/// them is refused naming the setting.
pub fn read_all(
    values: &BTreeMap<String, serde_json::Value>,
) -> Result<BTreeMap<String, TypedSetting>, String> {
    values
        .iter()
        .map(|(key, value)| {
            TypedSetting::deserialize(value)
                .map(|setting| (key.clone(), setting))
                .map_err(|_| {
                    format!(
                        "kernel content: settings.{key}: expected a boolean, a string, or an \
                         array of strings or of tables of scalars"
                    )
                })
        })
        .collect()
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

    #[test]
    fn a_value_of_no_shape_is_refused_naming_its_setting() {
        let values: BTreeMap<String, serde_json::Value> =
            serde_json::from_str(r#"{"bidding": "off", "assassins.protect": 3}"#).unwrap();
        let refused = read_all(&values).unwrap_err();
        assert!(refused.starts_with("kernel content: settings.assassins.protect: expected"));
        let values: BTreeMap<String, serde_json::Value> =
            serde_json::from_str(r#"{"bidding": "off"}"#).unwrap();
        assert_eq!(read_all(&values).unwrap()["bidding"].text(), Some("off"));
    }
}
