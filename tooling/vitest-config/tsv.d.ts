/** The rows of a tab-separated file with a header line, each split into its fields (the header left out). */
export declare const tsvRows: (file: string) => Array<Array<string>>
