// Promise wrappers over the pure-JS `x11` package, each request bounded: an X server that stops
// answering must not leave a call pending forever.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const x11 = require("x11") as X11Module;

interface X11Module {
  createClient(
    options: { display?: string },
    callback: (error: Error | null, display: { client: RawClient; screen: { root: number }[] }) => void,
  ): RawClient;
}

type Callback<T> = (error: Error | null, value: T) => void;

interface RawClient {
  on(event: "error" | "end" | "close", listener: (error?: Error) => void): void;
  InternAtom(onlyIfExists: boolean, name: string, callback: Callback<number>): void;
  GetProperty(
    del: number,
    window: number,
    property: number,
    type: number,
    longOffset: number,
    longLength: number,
    callback: Callback<{ type: number; format: number; data: Buffer; bytesAfter: number }>,
  ): void;
  ChangeProperty(
    mode: number,
    window: number,
    property: number,
    type: number,
    format: number,
    data: Buffer,
  ): void;
  GetGeometry(
    window: number,
    callback: Callback<{ xPos: number; yPos: number; width: number; height: number }>,
  ): void;
  TranslateCoordinates(
    source: number,
    destination: number,
    x: number,
    y: number,
    callback: Callback<{ destX: number; destY: number }>,
  ): void;
  QueryExtension(name: string, callback: Callback<{ present: number }>): void;
  GetInputFocus(callback: Callback<{ focus: number }>): void;
  QueryPointer(window: number, callback: Callback<{ rootX: number; rootY: number; child: number }>): void;
  terminate(): void;
}

export class X11Error extends Error {
  override readonly name = "X11Error";
}

const ANY_PROPERTY_TYPE = 0;
const PROP_MODE_REPLACE = 0;
const ATOM_STRING = 31;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export class X11Connection {
  #atoms = new Map<string, number>();
  #closed = false;

  private constructor(
    readonly display: string,
    private readonly client: RawClient,
    readonly root: number,
    readonly timeoutMs: number,
  ) {
    client.on("error", () => {});
    client.on("end", () => {
      this.#closed = true;
    });
  }

  static open(display: string, timeoutMs = 2000): Promise<X11Connection> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new X11Error(`X display ${display} did not answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
      try {
        x11.createClient({ display }, (error, connected) => {
          clearTimeout(timer);
          if (error) {
            reject(new X11Error(`cannot open X display ${display}: ${error.message}`));
            return;
          }
          const root = connected.screen[0]?.root;
          if (root === undefined) {
            reject(new X11Error(`X display ${display} has no screen`));
            return;
          }
          resolve(new X11Connection(display, connected.client, root, timeoutMs));
        });
      } catch (error) {
        clearTimeout(timer);
        reject(new X11Error(`cannot open X display ${display}: ${(error as Error).message}`));
      }
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  #request<T>(what: string, send: (callback: Callback<T>) => void): Promise<T> {
    if (this.#closed) return Promise.reject(new X11Error(`X display ${this.display} is closed`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new X11Error(`${what} got no answer from ${this.display} within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
      send((error, value) => {
        clearTimeout(timer);
        if (error) reject(new X11Error(`${what}: ${error.message}`));
        else resolve(value);
      });
    });
  }

  async atom(name: string): Promise<number> {
    const known = this.#atoms.get(name);
    if (known !== undefined) return known;
    const atom = await this.#request<number>(`InternAtom ${name}`, (cb) =>
      this.client.InternAtom(false, name, cb),
    );
    this.#atoms.set(name, atom);
    return atom;
  }

  /** The raw bytes of a property, or undefined when the window does not have it. */
  async property(
    window: number,
    name: string,
  ): Promise<{ type: number; format: number; data: Buffer } | undefined> {
    const atom = await this.atom(name);
    const reply = await this.#request<{ type: number; format: number; data: Buffer; bytesAfter: number }>(
      `GetProperty ${name}`,
      (cb) => this.client.GetProperty(0, window, atom, ANY_PROPERTY_TYPE, 0, 1 << 20, cb),
    );
    if (reply.type === 0) return undefined;
    return reply;
  }

  async cardinals(window: number, name: string): Promise<number[] | undefined> {
    const reply = await this.property(window, name);
    if (reply?.format !== 32) return undefined;
    const values: number[] = [];
    for (let offset = 0; offset + 4 <= reply.data.length; offset += 4)
      values.push(reply.data.readUInt32LE(offset));
    return values;
  }

  async text(window: number, name: string): Promise<string | undefined> {
    const reply = await this.property(window, name);
    if (reply?.format !== 8) return undefined;
    const utf8 = await this.atom("UTF8_STRING");
    return reply.data.toString(reply.type === utf8 ? "utf8" : "latin1");
  }

  async setStringProperty(window: number, name: string, value: string): Promise<void> {
    const atom = await this.atom(name);
    this.client.ChangeProperty(PROP_MODE_REPLACE, window, atom, ATOM_STRING, 8, Buffer.from(value, "latin1"));
    // ChangeProperty has no reply; a round trip after it proves the server processed it.
    await this.atom("UTF8_STRING");
  }

  /** The window's rectangle in root (screen) coordinates. */
  async rootRect(window: number): Promise<Rect> {
    const geometry = await this.#request<{ width: number; height: number }>(`GetGeometry ${window}`, (cb) =>
      this.client.GetGeometry(window, cb),
    );
    const origin = await this.#request<{ destX: number; destY: number }>(
      `TranslateCoordinates ${window}`,
      (cb) => this.client.TranslateCoordinates(window, this.root, 0, 0, cb),
    );
    return { x: origin.destX, y: origin.destY, width: geometry.width, height: geometry.height };
  }

  async hasExtension(name: string): Promise<boolean> {
    const reply = await this.#request<{ present: number }>(`QueryExtension ${name}`, (cb) =>
      this.client.QueryExtension(name, cb),
    );
    return Boolean(reply.present);
  }

  async pointer(): Promise<{ x: number; y: number }> {
    const reply = await this.#request<{ rootX: number; rootY: number }>("QueryPointer", (cb) =>
      this.client.QueryPointer(this.root, cb),
    );
    return { x: reply.rootX, y: reply.rootY };
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.client.terminate();
    } catch {
      // The stream is already gone.
    }
  }
}
