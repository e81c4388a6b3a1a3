// The stand-in's language features: semantic tokens for the whole file, as EliotVU's
// extension and ucx give (each word `Decoration` is a `type`), and a formatter, as ucx has
// (it trims trailing spaces). Plain JavaScript, no dependencies.
const vscode = require("vscode");

const legend = new vscode.SemanticTokensLegend(["type"], []);

function activate(context) {
  const selector = { language: "unrealscript" };
  context.subscriptions.push(
    vscode.languages.registerDocumentSemanticTokensProvider(
      selector,
      {
        provideDocumentSemanticTokens(document) {
          const builder = new vscode.SemanticTokensBuilder(legend);
          for (let line = 0; line < document.lineCount; line++) {
            const text = document.lineAt(line).text;
            let at = text.indexOf("Decoration");
            while (at >= 0) {
              builder.push(line, at, "Decoration".length, 0, 0);
              at = text.indexOf("Decoration", at + 1);
            }
          }
          return builder.build();
        },
      },
      legend,
    ),
    vscode.languages.registerDocumentFormattingEditProvider(selector, {
      provideDocumentFormattingEdits(document) {
        const edits = [];
        for (let line = 0; line < document.lineCount; line++) {
          const text = document.lineAt(line).text;
          const trimmed = text.replace(/\s+$/, "");
          if (trimmed.length !== text.length) {
            edits.push(vscode.TextEdit.delete(new vscode.Range(line, trimmed.length, line, text.length)));
          }
        }
        return edits;
      },
    }),
  );
}

module.exports = { activate };
