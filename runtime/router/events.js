import { namedTool } from '../targets/adapter.js';
import { adapterFor } from '../targets/index.js';
/** Listener lists per event. Internal to the router. */
export class Events {
    #compileDone = [];
    get hasCompileDone() { return this.#compileDone.length > 0; }
    on(event, listener) {
        if (event !== 'compile:done')
            throw new TypeError(`router.on: unknown event ${JSON.stringify(event)}; events: "compile:done".`);
        if (typeof listener !== 'function')
            throw new TypeError('router.on: the listener must be a function.');
        this.#compileDone.push(listener);
        return () => {
            const i = this.#compileDone.indexOf(listener);
            if (i >= 0)
                this.#compileDone.splice(i, 1);
        };
    }
    compileDone(target, payload) {
        // Each target's own reading of where its tools sit (Gemini keeps them under `config.tools[].functionDeclarations`).
        const tools = target === 'neutral' ? payload.tools : adapterFor(target).sentTools(payload);
        const name = target === 'neutral' ? namedTool : adapterFor(target).toolName;
        const toolNames = Array.isArray(tools) ? tools.map((tool) => name(tool) ?? '') : [];
        const event = { target, payload, toolNames };
        for (const listener of [...this.#compileDone])
            listener(event);
    }
}
