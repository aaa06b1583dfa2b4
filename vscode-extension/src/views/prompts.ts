import * as vscode from "vscode";
import { RoundhouseApi } from "../protocol/api";
import { describeError } from "../protocol/connection";
import { DecisionBook, PromptAction, decisionDetail, decisionHeadline, optionLabel, promptText, proposalView } from "../model/decisions";
import { Decision } from "../protocol/types";
import { DecisionDocuments } from "./decisionDocuments";

/**
 * Native prompts for decisions and the answers they give. A decision's notification is a cancellable progress
 * notification, the one kind of notification an extension can close: its options are links in its text
 * (PROMPT_COMMAND), Cancel hides it (the decision stays under Needs you), and it closes by itself when the
 * decision closes, wherever it was answered. Quick picks and input boxes opened for a decision close with it
 * too (their cancellation token). An answer to a decision no longer pending is not sent: a status bar message
 * says it was already answered. Used on the extension host's one thread.
 */
export class DecisionPrompts implements vscode.Disposable {
  private readonly closing = new Map<number, vscode.CancellationTokenSource>();
  /** The read-only documents `show` opens (registered for their scheme by the extension's activation). */
  readonly documents = new DecisionDocuments();

  constructor(private readonly api: () => RoundhouseApi, private readonly book: DecisionBook) {}

  /**
   * The decision's notification; resolves when it closes (answered anywhere, expired, or dismissed). A
   * question without options offers "Answer…": the input box opens only when the user chooses to answer, never
   * by itself (it would take the focus from whatever the user is doing).
   */
  prompt(decision: Decision): Promise<void> {
    const closed = this.closingToken(decision.id);
    return Promise.resolve(vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: promptText(decision), cancellable: true },
      (_progress, dismissed) => new Promise<void>((resolve) => {
        if (closed.isCancellationRequested) {
          resolve();
          return;
        }
        const listeners = [closed, dismissed].map((token) => token.onCancellationRequested(() => {
          listeners.forEach((listener) => listener.dispose());
          resolve();
        }));
      }),
    ));
  }

  /** The decision closed (answered anywhere, expired): its notification, quick pick or input box closes. */
  closed(id: number): void {
    const source = this.closing.get(id) ?? new vscode.CancellationTokenSource();
    this.closing.set(id, source);
    source.cancel();
  }

  /** A notification's link was clicked. */
  async fromPrompt(id: number, action: PromptAction): Promise<string | undefined> {
    const decision = this.pending(id);
    if (!decision) {
      return undefined;
    }
    if ("show" in action) {
      return this.show(decision);
    }
    if ("text" in action) {
      return this.askText(decision);
    }
    return this.answer(decision, action.option);
  }

  /** Opens the decision (a proposal's change as a diff) and asks for an option. */
  async show(decision: Decision): Promise<string | undefined> {
    const proposal = proposalView(decision);
    const document = await vscode.workspace.openTextDocument(this.documents.uri(decision.id, decisionDetail(decision), proposal !== undefined));
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
      this.closingToken(decision.id),
    );
    return picked ? this.answer(decision, picked.option) : undefined;
  }

  private async askText(decision: Decision): Promise<string | undefined> {
    const text = await vscode.window.showInputBox({ title: decisionHeadline(decision), prompt: decision.message ?? "Your answer" }, this.closingToken(decision.id));
    return text === undefined || text.trim() === "" ? undefined : this.answer(decision, text);
  }

  /**
   * Sends the answer; a refusal (already answered, expired) is shown with the hub's sentence. A decision no
   * longer pending here is not sent.
   */
  async answer(decision: Decision, option: string): Promise<string | undefined> {
    if (!this.pending(decision.id)) {
      return undefined;
    }
    try {
      await this.api().answerDecision(decision.id, option);
      this.closed(decision.id);
      return option;
    } catch (error) {
      void vscode.window.showErrorMessage(`Roundhouse: could not answer decision ${decision.id}: ${describeError(error)}`);
      return undefined;
    }
  }

  /** The decision if it is still pending; else says quietly that it was answered and closes what shows it. */
  private pending(id: number): Decision | undefined {
    const decision = this.book.get(id);
    if (!decision) {
      vscode.window.setStatusBarMessage(`Roundhouse: decision ${id} was already answered`, 5000);
      this.closed(id);
    }
    return decision;
  }

  private closingToken(id: number): vscode.CancellationToken {
    let source = this.closing.get(id);
    if (!source) {
      source = new vscode.CancellationTokenSource();
      this.closing.set(id, source);
    }
    return source.token;
  }

  dispose(): void {
    this.closing.forEach((source) => {
      source.cancel();
      source.dispose();
    });
    this.closing.clear();
  }
}
