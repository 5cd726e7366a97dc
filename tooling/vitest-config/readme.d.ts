/** The ```ts blocks of a Markdown file, in order. */
export declare const examples: (file: string) => Array<string>
/** Run the examples of `<packageDir>/README.md`; resolves to how many ran. */
export declare const runExamples: (packageDir: string) => Promise<number>
