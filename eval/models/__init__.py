"""Model backends behind one interface (`base`): local Hugging Face models by log-likelihood (`hf`),
OpenAI-compatible servers (`openai_compat`; by log-likelihood through /completions: `completions_ll`)
and Gemini (`gemini`), chosen by `registry.split_model` and `registry.kind_of`."""
