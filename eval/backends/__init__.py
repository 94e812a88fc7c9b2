"""Model backends behind one interface (`base`): local Hugging Face models by log-likelihood (`hf`),
OpenAI-compatible servers (`openai_compat`) and Gemini (`gemini`), chosen by `registry.split_model`."""
