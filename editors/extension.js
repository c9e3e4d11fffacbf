// The gamedsl extension: highlighting comes from the TextMate grammar (package.json); this
// starts the language server, `gamedsl lsp`, for .game and .scenario files, so mistakes show
// as you type, with hover, go to definition, references, completion, outline and quick fixes.
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("gamedsl");
  // the `gamedsl` installed with the Python package (pip install 'gamedsl[lsp]'), or the
  // command the settings name, e.g. ["/path/to/venv/bin/python", "-m", "gamedsl"]
  const command = config.get("server.command", ["gamedsl"]);
  const server = { command: command[0], args: [...command.slice(1), "lsp"] };
  client = new LanguageClient(
    "gamedsl",
    "gamedsl",
    { run: server, debug: server },
    {
      documentSelector: [{ language: "gamedsl" }],
      synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/*.{game,csv,txt}") },
    },
  );
  client.start().catch((err) => {
    vscode.window.showErrorMessage(
      `gamedsl: cannot start the language server (${command.join(" ")} lsp): ${err.message}. ` +
        "Install it with pip install 'gamedsl[lsp]', or set gamedsl.server.command.",
    );
  });
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
