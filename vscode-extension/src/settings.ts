// The `unrealLs` settings as the server reads them (server/ls/src/lsp/settings.rs):
// `gameDirectory`, `engine`, `rules` and `workspaceDiagnostics`. The client-only keys (`server.path`, `trace.server`)
// are not sent, because the server logs every key it does not know. Plain Node code, unit-tested.

import * as os from "node:os";
import { expandPath } from "./serverPath";

export const ENGINES = ["auto", "ue1", "ue2"] as const;
export type Engine = (typeof ENGINES)[number];
export const RULE_LEVELS = ["off", "hint", "info", "warning", "error"] as const;
export type RuleLevel = (typeof RULE_LEVELS)[number];

/** Exactly what the server's `Settings::from_json` reads. */
export interface ServerSettings {
  gameDirectory: string | null;
  engine: Engine;
  rules: Record<string, RuleLevel>;
  workspaceDiagnostics: boolean;
}

export interface SettingsInput {
  /** `workspace.getConfiguration("unrealLs").get(key)` */
  get(key: string): unknown;
  workspaceFolder?: string;
  env?: Record<string, string | undefined>;
  homedir?: string;
}

/** Maps the user's settings to the server's, with one message per value that was dropped
 * (the server would reject it too; saying so in the client's log is clearer). */
export function serverSettings(input: SettingsInput): { settings: ServerSettings; problems: string[] } {
  const problems: string[] = [];

  let gameDirectory: string | null = null;
  const rawDir = input.get("gameDirectory");
  if (typeof rawDir === "string") {
    if (rawDir.trim() !== "") {
      gameDirectory = expandPath(rawDir, {
        env: input.env ?? process.env,
        workspaceFolder: input.workspaceFolder,
        homedir: input.homedir ?? os.homedir(),
        bareNameIsCommand: false,
      });
    }
  } else if (rawDir !== undefined && rawDir !== null) {
    problems.push(`unrealLs.gameDirectory: expected a path, found ${JSON.stringify(rawDir)}`);
  }

  let engine: Engine = "auto";
  const rawEngine = input.get("engine");
  if (typeof rawEngine === "string" && (ENGINES as readonly string[]).includes(rawEngine.toLowerCase())) {
    engine = rawEngine.toLowerCase() as Engine;
  } else if (rawEngine !== undefined && rawEngine !== null) {
    problems.push(`unrealLs.engine: expected "auto", "ue1" or "ue2", found ${JSON.stringify(rawEngine)}; using "auto"`);
  }

  const rules: Record<string, RuleLevel> = {};
  const rawRules = input.get("rules");
  if (rawRules !== null && typeof rawRules === "object" && !Array.isArray(rawRules)) {
    for (const [code, level] of Object.entries(rawRules as Record<string, unknown>)) {
      const normalized = typeof level === "string" ? level.toLowerCase() : undefined;
      if (normalized !== undefined && (RULE_LEVELS as readonly string[]).includes(normalized)) {
        rules[code] = normalized as RuleLevel;
      } else {
        problems.push(`unrealLs.rules.${code}: expected off, hint, info, warning or error, found ${JSON.stringify(level)}`);
      }
    }
  } else if (rawRules !== undefined && rawRules !== null) {
    problems.push(`unrealLs.rules: expected an object of rule levels, found ${JSON.stringify(rawRules)}`);
  }

  let workspaceDiagnostics = true;
  const rawWorkspace = input.get("workspaceDiagnostics");
  if (typeof rawWorkspace === "boolean") {
    workspaceDiagnostics = rawWorkspace;
  } else if (rawWorkspace !== undefined && rawWorkspace !== null) {
    problems.push(`unrealLs.workspaceDiagnostics: expected true or false, found ${JSON.stringify(rawWorkspace)}; using true`);
  }

  return { settings: { gameDirectory, engine, rules, workspaceDiagnostics }, problems };
}

/** Settings whose change needs a new server process rather than a notification. */
export const RESTART_SETTINGS = ["unrealLs.server.path"];
