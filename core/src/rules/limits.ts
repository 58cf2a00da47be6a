/**
 * The most procedure calls one batched tRPC request may carry (decision 012).
 * The server refuses a larger batch with 'batch-too-large'; the portal's and
 * the desks' batch links split their batches at this size, so they never
 * send one. A page of the portal batches about a dozen queries at most.
 */
export const trpcMaxBatchSize = 50;
