import * as vscode from "vscode";
import { CommentThreadView } from "../model/workspace";

/**
 * A task's review comments (get_review) in the diff editor, through VS Code's comments API: one read-only
 * thread per commented line on the task's side of the file, each comment with its reviewer and verdict.
 * Showing a file again replaces its threads (the reviews may have changed). Replies are not offered: reviews
 * are written with Review Changes. Used on the extension host's one thread.
 */
export class ReviewComments implements vscode.Disposable {
  private readonly controller: vscode.CommentController;
  private readonly threads = new Map<string, vscode.CommentThread[]>();

  constructor() {
    this.controller = vscode.comments.createCommentController("roundhouse.reviews", "Roundhouse reviews");
  }

  /** Shows these threads on `uri` (the task's side of the diff), replacing what was shown there. */
  show(uri: vscode.Uri, threads: readonly CommentThreadView[]): void {
    const key = uri.toString();
    this.threads.get(key)?.forEach((thread) => thread.dispose());
    this.threads.set(key, threads.map((view) => {
      const comments: vscode.Comment[] = view.comments.map((comment) => ({
        body: comment.body,
        mode: vscode.CommentMode.Preview,
        author: { name: comment.author },
        label: comment.verdict,
      }));
      const thread = this.controller.createCommentThread(uri, new vscode.Range(view.line - 1, 0, view.line - 1, 0), comments);
      thread.canReply = false;
      thread.label = `Review · ${view.path}:${view.line}`;
      thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
      thread.contextValue = "roundhouse.review";
      return thread;
    }));
  }

  dispose(): void {
    this.threads.forEach((threads) => threads.forEach((thread) => thread.dispose()));
    this.threads.clear();
    this.controller.dispose();
  }
}
