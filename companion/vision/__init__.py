"""Photo readers (OpenCV).

Shared by every reader: ``load`` (decoding phone photos), ``register`` (corner markers,
QR label, homography), ``onnx_model`` and ``assets`` (shipped classifiers), ``overlay``
(labels, writing the image) and ``constants`` (loading and registration numbers). The
Delicious sheet reader is ``sheet/``, the Diced Veggies dice reader ``dice/``.
"""
