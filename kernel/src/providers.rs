//! Who provides each rule of a game, and whether the kernel implements that provider.
//!
//! The kernel finds a stage by its name, and a stage replaced under its own name keeps
//! it, so the name alone cannot tell the base game's village from a house rule's. Python
//! lists every rule with the plugin module that provides it (`naqala.core.native`: each
//! stage, card power, cost code and turn field, each provider hook and wrapper, every
//! hook that changes play, every plugin's own name); the kernel plays a game only when
//! every one of those modules is one whose rules it implements.

use serde::Deserialize;

/// The plugin modules whose rules the kernel implements, each under the names (plugin
/// ids) its rules are keyed on: a plugin of another module under one of these names is
/// not taken for the box.
pub const IMPLEMENTED: &[(&str, &[&str])] = &[
    (BASE, &["base"]),
    (ARTISANS, &["artisans"]),
    (WHIMS, &["djinns", "whims"]),
    ("naqala.plugins.thieves", &["thieves"]),
    (SOLO, &["solo"]),
];

/// The plugin modules whose score lines the kernel writes (`Rules::score_sheet`).
pub const BASE: &str = "naqala.plugins.base";
pub const ARTISANS: &str = "naqala.plugins.artisans";
pub const WHIMS: &str = "naqala.plugins.whims";

/// Solo mode's plugin module: the provider of a solo game's `bid` stage
/// (`ContentDoc::is_solo`).
pub const SOLO: &str = "naqala.plugins.solo";

/// The entries that change no move: hooks that only read a state, run in Python.
const READS: &str = "reads:";
/// A hook that changes play (`hook:<name>`).
const HOOK: &str = "hook:";
/// A plugin's own name (`plugin:<id>`).
const PLUGIN: &str = "plugin:";

/// One rule and its provider, as `naqala.native.content` writes the `providers` table.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderSpec {
    /// `<kind>:<name>`: `stage:tile:village`, `hook:naqala_event`, `plugin:thieves`
    pub entry: String,
    /// the plugin's name, for messages
    pub plugin: String,
    /// the module the plugin is (`naqala.plugins.base`)
    pub module: String,
    /// whether the plugin says its hooks are ported (`naqala_native_support`): a claim
    /// that can keep a game in Python, never send one to the kernel
    pub ported: bool,
}

/// Whether the kernel implements the provider of `spec`. A read-only hook's provider is
/// judged too (the environments ask who adds to an observation), and a plugin's name
/// only matters when the kernel keys rules on it.
pub fn implements(spec: &ProviderSpec) -> bool {
    if let Some(name) = spec.entry.strip_prefix(PLUGIN) {
        return IMPLEMENTED
            .iter()
            .find(|(_, names)| names.contains(&name))
            .is_none_or(|(module, _)| *module == spec.module);
    }
    spec.ported && IMPLEMENTED.iter().any(|(module, _)| *module == spec.module)
}

/// The entries whose provider the kernel does not implement, in the table's order.
pub fn foreign(table: &[ProviderSpec]) -> Vec<&ProviderSpec> {
    table.iter().filter(|spec| !implements(spec)).collect()
}

/// The first entry that changes play and whose provider the kernel does not implement:
/// the reason a game of these rules is not the kernel's to play.
pub fn first_foreign_rule(table: &[ProviderSpec]) -> Option<&ProviderSpec> {
    first_foreign_rule_beside(table, |_| false)
}

/// `first_foreign_rule`, beside the hooks the kernel calls back (`called_back` says
/// which, by hook name): those it asks the plugin itself, so their provider does not
/// matter.
pub fn first_foreign_rule_beside(
    table: &[ProviderSpec],
    called_back: impl Fn(&str) -> bool,
) -> Option<&ProviderSpec> {
    table.iter().find(|spec| {
        let asked = spec.entry.strip_prefix(HOOK).is_some_and(&called_back);
        !spec.entry.starts_with(READS) && !asked && !implements(spec)
    })
}

/// The table read from its JSON text (a list of `ProviderSpec`), or why not.
pub fn from_json(text: &str) -> Result<Vec<ProviderSpec>, String> {
    serde_json::from_str(text).map_err(|e| format!("providers table: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(entry: &str, module: &str, ported: bool) -> ProviderSpec {
        ProviderSpec {
            entry: entry.into(),
            plugin: "p".into(),
            module: module.into(),
            ported,
        }
    }

    #[test]
    fn the_shipped_modules_that_say_they_are_ported_are_implemented() {
        assert!(implements(&spec(
            "stage:tile:village",
            "naqala.plugins.base",
            true
        )));
        assert!(implements(&spec(
            "hook:naqala_event",
            "naqala.plugins.thieves",
            true
        )));
        // a shipped module that does not claim its hooks ported stays in Python
        assert!(!implements(&spec(
            "hook:naqala_event",
            "naqala.plugins.base",
            false
        )));
    }

    #[test]
    fn a_replaced_stage_keeps_its_name_but_not_its_provider() {
        let table = [
            spec("plugin:base", "naqala.plugins.base", true),
            spec("stage:tile:village", "naqala_house_0a1b", true),
            spec("reads:naqala_explain", "naqala_house_0a1b", false),
        ];
        let found = foreign(&table);
        assert_eq!(found, vec![&table[1], &table[2]]);
        assert_eq!(first_foreign_rule(&table), Some(&table[1]));
    }

    #[test]
    fn a_read_only_hook_alone_leaves_the_game_to_the_kernel() {
        let table = [
            spec("plugin:notes", "naqala_house_ff", false),
            spec("reads:naqala_public_notes", "naqala_house_ff", false),
        ];
        assert_eq!(first_foreign_rule(&table), None);
        assert_eq!(foreign(&table).len(), 1);
    }

    #[test]
    fn a_hook_called_back_leaves_the_game_to_the_kernel() {
        let table = [
            spec("plugin:cap", "naqala_house_c4", false),
            spec("hook:naqala_game_ends", "naqala_house_c4", false),
        ];
        assert_eq!(first_foreign_rule(&table), Some(&table[1]));
        let called_back = |hook: &str| hook == "naqala_game_ends";
        assert_eq!(first_foreign_rule_beside(&table, called_back), None);
        let other = |hook: &str| hook == "naqala_protected_meeples";
        assert_eq!(first_foreign_rule_beside(&table, other), Some(&table[1]));
    }

    #[test]
    fn a_plugin_named_as_a_box_is_not_taken_for_it() {
        let fake = spec("plugin:thieves", "naqala_house_77", true);
        assert!(!implements(&fake));
        assert!(implements(&spec(
            "plugin:djinns",
            "naqala.plugins.whims",
            true
        )));
        // a content-only plugin under a name of its own is nothing the kernel keys on
        assert!(implements(&spec(
            "plugin:big-viziers",
            "naqala.plugins.house.x",
            false
        )));
    }

    #[test]
    fn a_table_that_is_no_list_of_entries_is_refused_in_one_line() {
        assert!(from_json("[{\"entry\": \"stage:bid\"}]").is_err());
        let read = from_json(
            "[{\"entry\":\"stage:bid\",\"plugin\":\"base\",\
             \"module\":\"naqala.plugins.base\",\"ported\":true}]",
        );
        assert_eq!(read.map(|t| t.len()), Ok(1));
    }
}
