// Just enough of a browser to run the transcript webview's script in node's vm: elements with classes,
// text, children and click listeners, a window that delivers messages, and acquireVsCodeApi. Not a DOM.
import * as vm from "vm";

export class FakeElement {
  className = "";
  title = "";
  hidden = false;
  open = false;
  readonly dataset: Record<string, string> = {};
  readonly children: FakeElement[] = [];
  parent: FakeElement | undefined;
  private ownText = "";
  private readonly listeners = new Map<string, () => void>();

  constructor(readonly tagName: string) {}

  get textContent(): string {
    return this.ownText + this.children.map((c) => c.textContent).join("");
  }

  set textContent(value: string) {
    this.ownText = value;
    this.children.splice(0).forEach((c) => (c.parent = undefined));
  }

  get firstElementChild(): FakeElement | null {
    return this.children[0] ?? null;
  }

  get childElementCount(): number {
    return this.children.length;
  }

  appendChild(child: FakeElement): FakeElement {
    child.remove();
    child.parent = this;
    this.children.push(child);
    return child;
  }

  replaceWith(other: FakeElement): void {
    const parent = this.parent!;
    other.remove();
    parent.children[parent.children.indexOf(this)] = other;
    other.parent = parent;
    this.parent = undefined;
  }

  remove(): void {
    if (this.parent) {
      this.parent.children.splice(this.parent.children.indexOf(this), 1);
      this.parent = undefined;
    }
  }

  addEventListener(type: string, listener: () => void): void {
    this.listeners.set(type, listener);
  }

  click(): void {
    this.listeners.get("click")?.();
  }

  /** Descendants (depth first) whose tag is `tag`. */
  all(tag: string): FakeElement[] {
    return this.children.flatMap((c) => [...(c.tagName === tag ? [c] : []), ...c.all(tag)]);
  }
}

/** A copy, as postMessage delivers (the page and the test live in different realms). */
function clone(message: unknown): unknown {
  return JSON.parse(JSON.stringify(message));
}

export interface Page {
  readonly items: FakeElement;
  /** The sticky header line. */
  readonly state: FakeElement;
  readonly posted: unknown[];
  send(message: unknown): void;
}

/**
 * Runs the page's inline script; `send` delivers a message as the extension's postMessage would, and what the
 * page posts is recorded and handed to `onPost` (the extension's onDidReceiveMessage).
 */
export function runPage(html: string, onPost: (message: unknown) => void = () => undefined): Page {
  const script = /<script nonce="[^"]*">([\s\S]*)<\/script>/.exec(html);
  if (!script) {
    throw new Error("the page has no inline script");
  }
  const elements = new Map(["items", "earlier", "state"].map((id) => [id, new FakeElement("div")]));
  const windowListeners = new Map<string, (event: { data: unknown }) => void>();
  const posted: unknown[] = [];
  vm.runInNewContext(script[1], {
    acquireVsCodeApi: () => ({ postMessage: (message: unknown) => { posted.push(clone(message)); onPost(clone(message)); } }),
    document: { createElement: (tag: string) => new FakeElement(tag), getElementById: (id: string) => elements.get(id), body: { scrollHeight: 0 } },
    window: { innerHeight: 0, scrollY: 0, scrollTo: () => undefined, addEventListener: (type: string, l: (event: { data: unknown }) => void) => windowListeners.set(type, l) },
  });
  return { items: elements.get("items")!, state: elements.get("state")!, posted, send: (message) => windowListeners.get("message")!({ data: clone(message) }) };
}
