"""The VS Code extension in editors/: its manifest is valid and starts `gamedsl lsp`.

Packaging it as a .vsix needs npm (docs/editors.md); here the manifest is read, and where
node is installed the extension's code is run against stand-ins for VS Code and its
language client, to see the command it starts."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from gamedsl.cli.main import build_parser

EDITORS = Path(__file__).resolve().parents[2] / "editors"


def manifest():
    return json.loads((EDITORS / "package.json").read_text("utf-8"))


def test_the_manifest_points_at_the_server_and_its_client():
    m = manifest()
    assert (EDITORS / m["main"]).is_file()
    assert "onLanguage:gamedsl" in m["activationEvents"]
    assert "vscode-languageclient" in m["dependencies"]
    setting = m["contributes"]["configuration"]["properties"]["gamedsl.server.command"]
    assert setting["default"] == ["gamedsl"]
    assert "vsce package" in m["scripts"]["package"]
    # the command it runs exists
    assert build_parser().parse_args(["lsp"]).command == "lsp"
    assert build_parser().parse_args(["lsp", "--stdio"]).command == "lsp"


ACTIVATE = r"""
const Module = require("module");
const started = [];
const stubs = {
  vscode: {
    workspace: {
      getConfiguration: () => ({ get: (key, dflt) => (process.env.COMMAND ? JSON.parse(process.env.COMMAND) : dflt) }),
      createFileSystemWatcher: () => ({}),
    },
    window: { showErrorMessage: (m) => started.push({ error: m }) },
  },
  "vscode-languageclient/node": {
    LanguageClient: class {
      constructor(id, name, server, client) { started.push({ id, server: server.run, selector: client.documentSelector }); }
      start() { return Promise.resolve(); }
      stop() { return Promise.resolve(); }
    },
  },
};
const load = Module._load;
Module._load = function (request, ...rest) { return request in stubs ? stubs[request] : load.call(this, request, ...rest); };
const ext = require(process.argv[1]);
ext.activate({ subscriptions: [] });
setTimeout(() => console.log(JSON.stringify(started)), 0);
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("setting, command", [
    (None, {"command": "gamedsl", "args": ["lsp"]}),
    (["/venv/bin/python", "-m", "gamedsl"], {"command": "/venv/bin/python", "args": ["-m", "gamedsl", "lsp"]}),
])
def test_the_extension_starts_gamedsl_lsp(setting, command):
    env = {"PATH": "/usr/bin:/bin"} | ({"COMMAND": json.dumps(setting)} if setting else {})
    out = subprocess.run(["node", "-e", ACTIVATE, str(EDITORS / "extension.js")], capture_output=True,
                         text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    (started,) = json.loads(out.stdout)
    assert started["server"] == command
    assert started["selector"] == [{"language": "gamedsl"}]
