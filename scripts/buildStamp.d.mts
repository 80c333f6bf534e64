/** Types of scripts/buildStamp.mjs (plain JavaScript, so a release runs it without tsx). */
export declare const ROOT: string;
export declare const CONSOLE_INPUTS: string[];
export declare const SERVER_INPUTS: string[];
export declare function stampOf(inputs: string[]): string;
export declare function hasSources(): boolean;
export declare function builtStamp(dir: string): string | undefined;
export declare function staleParts(): { console: boolean; server: boolean };
