"""Model backends behind one interface (`base`), chosen by the prefix of `--model PREFIX:NAME`.

Input: a request (`ChoiceRequest`: context and continuations; `GenerationRequest`: messages) and the
plan's model settings. Output: `ChoiceResult` (log-likelihoods) or `GenerationResponse` (text, finish
reason), or a `TechnicalFailure` (retryable), `RequestRejected` or `ConfigurationFailure`.

Public:
- `base`: `ChoiceRequest`, `ChoiceResult`, `GenerationRequest`, `GenerationResponse`, `LoglikelihoodBackend`,
  `GenerativeBackend`, `TechnicalFailure`
- `errors`: `ConfigurationFailure`, `RequestRejected`
- `registry`: `split_model`, `kind_of`, `backend_entry`, `register_backend`, `BackendEntry`
- `hf`: `HFBackend`, `packaged_smollm2_gguf`, `weights_fingerprint`, `model_revision` (local models by log-likelihood)
- `naming`: `default_display_name`, `model_label` (what tables call a model: --name or its own name, never a path)
- `hf_generate`: `HFGenerateBackend`; `openai_compat`: `OpenAICompatBackend`; `completions_ll`:
  `CompletionsLoglikelihoodBackend`; `gemini`: `GeminiBackend`

The old path `eval.backends.*` still imports these same modules (eval/__init__.py).
"""
