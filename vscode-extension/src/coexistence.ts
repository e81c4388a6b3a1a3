// How the client sits beside the UnrealScript extensions modders already use (EliotVU's
// "UnrealScript", ucx): it shares their language id, injects its #exec grammar into theirs,
// registers its formatter for T3D only (the server does, by dynamic registration), and leaves
// UnrealScript files' semantic tokens to them. Pure logic, tested without VS Code.

/** UnrealScript extensions that colour whole files with semantic tokens (EliotVU's
 * "UnrealScript", ucx). */
export const UNREALSCRIPT_EXTENSIONS = ["EliotVU.uc", "peterekepeter.ucx"];

/** Whether this client leaves a document's semantic tokens to another extension: an
 * UnrealScript document (anything but T3D) while one of {@link UNREALSCRIPT_EXTENSIONS} is
 * installed and enabled (`installed`). VS Code shows one provider's tokens a document (the
 * newest registered that returns any); ours colour only the #exec lines. */
export function leavesSemanticTokensFor(languageId: string, installed: (id: string) => boolean): boolean {
  return languageId !== "t3d" && UNREALSCRIPT_EXTENSIONS.some(installed);
}
