"""Running the service: settings from the environment (``config.py``), JSON logs
(``logs.py``), Prometheus metrics (``metrics.py``), health (``health.py``) and the gate
that bounds the engine's concurrent calls (``gate.py``)."""
