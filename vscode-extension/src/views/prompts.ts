import * as vscode from "vscode";
import { RoundhouseApi } from "../protocol/api";
import { describeError } from "../protocol/connection";
import { decisionDetail, decisionHeadline, optionLabel, proposalView } from "../model/decisions";
import { Decision } from "../protocol/types";

const SHOW_CHANGE = "Show change";

/** Native prompts for decisions and the answers they give. */
export class DecisionPrompts {
  constructor(private readonly api: RoundhouseApi) {}

  /** A notification with one button per option (a proposal also offers "Show change"); answers the choice. */
  async prompt(decision: Decision): Promise<string | undefined> {
    if (decision.options.length === 0) {
      return this.askText(decision);
    }
    const buttons = decision.options.map(optionLabel);
    const proposal = proposalView(decision);
    if (proposal) {
      buttons.push(SHOW_CHANGE);
    }
    const text = `Roundhouse · ${decisionHeadline(decision)}${decision.message && decision.message !== decision.title ? ` — ${decision.message}` : ""}`;
    const show = decision.kind === "permission" ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    const chosen = await show(text, ...buttons);
    if (chosen === undefined) {
      return undefined; // dismissed: it stays under "Needs you"
    }
    if (chosen === SHOW_CHANGE) {
      return this.show(decision);
    }
    return this.answer(decision, decision.options[buttons.indexOf(chosen)] ?? chosen);
  }

  /** Opens the decision (a proposal's change as a diff) and asks for an option. */
  async show(decision: Decision): Promise<string | undefined> {
    const proposal = proposalView(decision);
    const document = await vscode.workspace.openTextDocument({ content: decisionDetail(decision), language: proposal ? "diff" : "plaintext" });
    await vscode.window.showTextDocument(document, { preview: true, preserveFocus: true });
    return this.choose(decision);
  }

  /** A quick pick of the options (or an input box for a free-text question); answers the choice. */
  async choose(decision: Decision): Promise<string | undefined> {
    if (decision.options.length === 0) {
      return this.askText(decision);
    }
    const picked = await vscode.window.showQuickPick(
      decision.options.map((option) => ({ label: optionLabel(option), option })),
      { title: decisionHeadline(decision), placeHolder: "Answer this decision" },
    );
    return picked ? this.answer(decision, picked.option) : undefined;
  }

  private async askText(decision: Decision): Promise<string | undefined> {
    const text = await vscode.window.showInputBox({ title: decisionHeadline(decision), prompt: decision.message ?? "Your answer" });
    return text === undefined || text.trim() === "" ? undefined : this.answer(decision, text);
  }

  /** Sends the answer; a refusal (already answered, expired) is shown with the hub's sentence. */
  async answer(decision: Decision, option: string): Promise<string | undefined> {
    try {
      await this.api.answerDecision(decision.id, option);
      return option;
    } catch (error) {
      void vscode.window.showErrorMessage(`Roundhouse: could not answer decision ${decision.id}: ${describeError(error)}`);
      return undefined;
    }
  }
}
