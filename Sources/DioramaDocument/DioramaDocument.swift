// DioramaDocument
