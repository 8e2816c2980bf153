// DioramaMixer
