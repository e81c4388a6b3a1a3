// Workspace Trust (Restricted Mode). The extension declares limited support
// (`capabilities.untrustedWorkspaces` in package.json): what VS Code itself does from the
// extension's files (language detection, the TextMate grammars, folding on Begin/End, brackets
// and comments) works in an untrusted workspace, and nothing that runs the unreal-ls binary
// does. The language server reads the workspace's `unreal-ls.toml` and the game folder it
// names (or that it finds in or above the workspace) and parses every package there; the
// previews and the glTF export parse package and mesh files of the workspace. Those wait until
// the user trusts the workspace, and then start without a reload.
//
// Plain text, no `vscode` import, so that the unit tests can check it against package.json.

/** The command that opens VS Code's Workspace Trust editor. */
export const MANAGE_TRUST_COMMAND = "workbench.trust.manage";

/** Said once per window (a notification and the output channel) in an untrusted workspace. */
export const RESTRICTED_MODE_MESSAGE =
  "unreal-ls: Restricted Mode. Highlighting and folding work; the language server " +
  "(diagnostics, hover, completion), the package and mesh previews, the map overview and glTF " +
  "export are off until you trust this workspace, because they run unreal-ls on its files and " +
  "its unreal-ls.toml.";

/** What a preview or a command shows in place of its result in an untrusted workspace. */
export const RESTRICTED_FEATURE_MESSAGE =
  "Restricted Mode: this runs unreal-ls on the workspace's files; trust the workspace " +
  "(Workspaces: Manage Workspace Trust) to turn it on.";

/** Settings that VS Code must not take from an untrusted workspace's own settings: a path
 * the server reads packages from. (`unrealLs.server.path` is machine-scoped, so no workspace
 * can set it in any mode.) */
export const RESTRICTED_CONFIGURATIONS = ["unrealLs.gameDirectory"];
