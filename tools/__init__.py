"""Development tools: synthetic data, benchmarks and training; not installed."""
