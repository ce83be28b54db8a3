// The fuda extension: starts `fuda lsp` (the binary and the language of printed card text come
// from the settings `fuda.server.path` and `fuda.lang`) and connects VS Code to it over stdio.

import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

let client: LanguageClient | undefined;

/** Starts the server with the current settings, in the first workspace folder. */
async function start(): Promise<void> {
  const config = vscode.workspace.getConfiguration("fuda");
  const command = config.get<string>("server.path", "fuda");
  const lang = config.get<string>("lang", "en");
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;

  const run = { command, args: ["lsp"], transport: TransportKind.stdio, options: { cwd } };
  const serverOptions: ServerOptions = { run, debug: run };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "fuda" },
      // Scenarios: TOML files of a pack's `scenarios/` folder.
      { scheme: "file", pattern: "**/scenarios/**/*.toml" },
      // Pack scripts: their syntax errors.
      { scheme: "file", pattern: "**/*.rhai" },
    ],
    initializationOptions: { lang },
  };
  client = new LanguageClient("fuda", "fuda language server", serverOptions, clientOptions);
  try {
    await client.start();
  } catch (e) {
    void vscode.window.showErrorMessage(
      `fuda: cannot start \`${command} lsp\` (set "fuda.server.path"): ${String(e)}`,
    );
  }
}

/** Stops the server, if it runs. */
async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running) {
    await running.stop();
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration("fuda")) {
        // The server reads its options once: start it again with the new ones.
        await stop();
        await start();
      }
    }),
  );
  await start();
}

export async function deactivate(): Promise<void> {
  await stop();
}
